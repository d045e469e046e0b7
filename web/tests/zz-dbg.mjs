import { serve, launch, guardedPage, ready } from "./harness.mjs";
const { server, base } = await serve();
const browser = await launch();
const page = await guardedPage(browser, { viewport: { width: 375, height: 667 } });
await page.goto(`${base}embed.html#scenario=redlock-split-votes&step=60&controls=minimal`);
await ready(page);
await page.waitForTimeout(800);
console.log(await page.evaluate(() => {
  const s = document.querySelector(".timeline-scroller");
  const r = (el) => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.width, b.height].map(Math.round).join(","); };
  const wide = [...s.querySelectorAll("*")].filter(e => e.getBoundingClientRect().right > s.getBoundingClientRect().right + 1).slice(0, 8).map(e => e.tagName + "." + e.className?.baseVal ?? e.className + " " + r(e));
  return { sw: s.scrollWidth, cw: s.clientWidth, box: r(s), page: r(document.querySelector(".page")), wide };
}));
await browser.close(); server.close();

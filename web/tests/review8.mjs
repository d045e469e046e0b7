// Browser tests of the fixes after the presenter's review of session 8: Home and End move the
// timeline, a link with a bad step or mode keeps its scenario, the embed's bad-link message, and a
// what-if branch named where it shows and in its download.
import fs from "node:fs";
import { test, assert, ready, text } from "./harness.mjs";

/** The timeline scroller's position, two frames after the last key (no waiting for a glide). */
const scrollAfterFrames = (page) => page.evaluate(() => new Promise((resolve) =>
  requestAnimationFrame(() => requestAnimationFrame(() => {
    const s = document.querySelector(".timeline-scroller");
    const box = s.getBoundingClientRect();
    const cur = document.querySelector("rect.current-outline")?.getBoundingClientRect();
    resolve({
      top: s.scrollTop, left: s.scrollLeft, height: s.scrollHeight,
      curIn: !!cur && cur.height > 0 && cur.top >= box.top && cur.bottom <= box.bottom,
      // How far below the window's top the picture's lane headers are, and whether its title
      // shows (presenter mode leaves the title block above the window: follow.rs `title_floor`).
      headsAt: Math.min(...[...document.querySelectorAll(".page [data-layer=lanes] text")]
        .filter((t) => t.getClientRects().length).map((t) => t.getBoundingClientRect().top)) - box.top,
      titleIn: (() => {
        const t = document.querySelector("#ls-before text")?.getBoundingClientRect();
        return !!t && t.top >= box.top && t.bottom <= box.bottom;
      })(),
    });
  }))));

export async function reviewTests(browser, base, shot) {
  await test(browser, "Home scrolls the timeline back to its top left and End to the last step", async (page) => {
    for (const present of [true, false]) {
      await page.goto(`${base}index.html#scenario=redlock-split-votes${present ? "&present=1" : ""}`);
      await page.reload();
      await ready(page);
      if (present && !(await page.locator(".app.presenter").count())) await page.keyboard.press("f");
      await page.keyboard.press("End");
      await page.waitForFunction(() => location.hash.includes("step=end"));
      const end = await scrollAfterFrames(page);
      assert(end.curIn && end.top > 1000, `${present ? "presenter" : "normal"}: End shows the last step: ${JSON.stringify(end)}`);
      for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("Home");
      // "step=end" has no digit: wait for the hash to name no step (or step 0) at all.
      await page.waitForFunction(() => !/step=/.test(location.hash) || /step=0\b/.test(location.hash));
      const home = await scrollAfterFrames(page);
      // The app leaves the picture's title block above the window (the header bar names the run).
      assert(home.left === 0 && home.headsAt >= 0 && home.headsAt < 90 && !home.titleIn,
        `${present ? "presenter" : "normal"}: Home goes to the left, the lane headers at the top: ${JSON.stringify(home)}`);
      await shot(page, `home-after-end-${present ? "presenter" : "normal"}-1920x1080`);
      // And End again after stepping back reaches the last step at once.
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("End");
      await page.waitForFunction(() => location.hash.includes("step=end"));
      assert((await scrollAfterFrames(page)).curIn, "End after Home shows the last step");
    }
    // A presenter link at step 0 opens on the lane headers: the header bar names the run and the
    // strip under the picture explains the step, so the picture's own title block is left above.
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=12&present=1`);
    await page.reload();
    await ready(page);
    await page.keyboard.press("Home");
    const start = await scrollAfterFrames(page);
    assert(start.left === 0 && start.headsAt >= 0 && start.headsAt < 90 && !start.titleIn,
      `step 0 in presenter mode shows the lane headers at the top, not the title block: ${JSON.stringify(start)}`);
    // Scrolling up by hand still shows the title.
    await page.locator(".timeline-scroller").evaluate((s) => s.scrollTo({ top: 0, behavior: "instant" }));
    assert((await scrollAfterFrames(page)).titleIn, "the picture's title shows when scrolled up by hand");
    await shot(page, "presenter-step0-1920x1080");
  });

  await test(browser, "a link with a bad step or mode keeps its scenario and names each bad part", async (page) => {
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=abc&mode=weird`);
    await ready(page);
    const note = await text(page, ".notice");
    assert(note.includes("step=abc") && note.includes("mode=weird") && note.includes("step 0"), note);
    assert(!(await page.locator(".picker").isVisible()), "no picker: the scenario is open");
    assert((await page.inputValue("input[aria-label='Current step']")) === "0", "at step 0");
    assert((await text(page, ".run-title")).length > 0, "the run's title shows");
    await shot(page, "link-bad-step-and-mode-1920x1080");
    // The valid step of a link with a bad mode is kept.
    await page.evaluate(() => { location.hash = "#scenario=fenced-gc-pause&step=7&mode=weird"; });
    await page.waitForFunction(() => document.querySelector(".notice")?.textContent.includes("mode=weird"));
    assert((await page.inputValue("input[aria-label='Current step']")) === "7", "at step 7");
    // An embed with a bad link says why and links to the app; it offers no picker it has not got.
    await page.goto(`${base}embed.html#scenario=nope&controls=whatever`);
    await page.waitForSelector(".embed.empty");
    const why = await text(page, ".embed.empty");
    assert(why.includes("nope") && !/pick/i.test(why), why);
    const href = await page.locator(".embed.empty a", { hasText: "Open lockstep" }).getAttribute("href");
    assert(href.endsWith("/index.html"), `the link to the app: ${href}`);
    await shot(page, "embed-bad-link-800x450");
    // An embed whose step is mangled still shows its scenario.
    await page.goto(`${base}embed.html#scenario=fenced-gc-pause&step=abc&controls=minimal`);
    await page.reload();
    await ready(page);
    assert((await page.locator(".embed.empty").count()) === 0, "the embed shows the run");
  }, { viewport: { width: 800, height: 450 } });

  await test(browser, "a what-if branch is named in the title, the picture and the downloaded JSON", async (page) => {
    await page.goto(`${base}index.html#scenario=naive-happy-path&step=6`);
    await ready(page);
    const original = await text(page, ".run-title");
    await page.selectOption("[data-testid=fault-kind]", "pause");
    await page.selectOption("[data-testid=fault-target]", "A");
    await page.fill("[data-testid=fault-seconds]", "10");
    await page.locator("[data-testid=fault-seconds]").dispatchEvent("change");
    await page.click("text=Inject now");
    await page.waitForSelector("[data-testid=branch]");
    const title = await text(page, ".run-title");
    assert(/^What-if: pause A for 10 s at \d+ ms \(after step 6\) — in “/.test(title) && title.endsWith(`${original}”`), title);
    await page.keyboard.press("End");
    await page.waitForFunction(() => location.hash.includes("step=end"));
    const svgTitle = await page.locator(".page").first().evaluate((p) =>
      [...p.querySelectorAll("svg text")].filter((t) => t.getClientRects().length > 0).map((t) => t.textContent).join("\n"));
    assert(svgTitle.includes("What-if: pause A for 10 s"), "the picture's heading names the what-if");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=download-json]")]);
    const doc = JSON.parse(fs.readFileSync(await download.path(), "utf8"));
    assert(doc.scenario.title === title, `the JSON's title: ${doc.scenario.title}`);
    assert(doc.whatifs?.length === 1 && doc.whatifs[0].at_step === 6 && doc.whatifs[0].kind === "pause",
      `the JSON carries the what-if: ${JSON.stringify(doc.whatifs)}`);
    await shot(page, "what-if-named-1920x1080");
  });
}

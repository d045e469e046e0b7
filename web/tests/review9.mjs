// Browser tests of session 9's work on the presenter's review: presenter mode fits the projector
// (the whole width, lane names kept at the top, a tall timeline, step 0 showing the lane
// headers, the lease chart whole), normal mode's labels at least 12 px, embeds that fit their frame,
// step time on the largest runs, the small fixes and a file link that loses to a newer pick.
import fs from "node:fs";
import path from "node:path";
import { test, assert, ready, text, webDir, fitZoom, frames } from "./harness.mjs";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Key press to the next frame, `n` times forward from `step` in `id` (normal mode, every panel
 * shown), as the page measures it: keydown dispatched, the picture's title naming the new step,
 * then one animation frame. Returns the times in ms.
 */
export async function stepTimes(page, base, id, step, n) {
  await page.goto(`${base}index.html#scenario=${id}&step=${step}`);
  await page.reload();
  await ready(page);
  await page.waitForTimeout(500);
  const times = [];
  for (let i = 0; i < n; i++) {
    times.push(await page.evaluate(() => new Promise((resolve) => {
      // Seen the moment the picture's title changes (polling with timeouts would wait behind
      // the frame itself and the idle-time work after it), then to the start of the next frame.
      const title = document.querySelector("#ls-title");
      const t0 = performance.now();
      const watch = new MutationObserver(() => {
        watch.disconnect();
        requestAnimationFrame(() => resolve(performance.now() - t0));
      });
      watch.observe(title, { childList: true, characterData: true, subtree: true });
      document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
    })));
    // A presenter's pace, not a held key.
    await page.waitForTimeout(150);
  }
  return times;
}


/** Where the picture and its scroller are, and what of the picture lies outside the scroller. */
const fitOf = (page) => page.evaluate(() => {
  const s = document.querySelector(".timeline-scroller");
  const box = s.getBoundingClientRect();
  const pic = document.querySelector("#ls-timeline").getBoundingClientRect();
  const scale = pic.width / document.querySelector("#ls-timeline").viewBox.baseVal.width;
  const labels = [...document.querySelectorAll(".page [data-layer=labels] text")]
    .map((t) => Number(t.getAttribute("font-size")) || parseFloat(getComputedStyle(t).fontSize))
    .filter((n) => n > 0);
  return {
    sideways: s.scrollWidth > s.clientWidth + 1,
    picLeft: pic.left, picRight: pic.right, boxLeft: box.left, boxRight: box.right,
    boxTop: box.top, boxBottom: box.bottom, boxHeight: box.height, scale,
    label: (labels.length ? Math.min(...labels) : 16) * scale,
    svgLegendTexts: document.querySelectorAll(".page [data-layer=legend] text").length,
  };
});

/** The sticky lane names shown over the timeline, with where they are on screen. */
const headsOf = (page) => page.evaluate(() => {
  const row = document.querySelector(".lane-heads");
  const box = document.querySelector(".timeline-scroller").getBoundingClientRect();
  return {
    shown: !!row && !row.hidden && getComputedStyle(row).display !== "none",
    heads: [...document.querySelectorAll(".lane-head")].map((h) => {
      const r = h.getBoundingClientRect();
      return { name: h.querySelector("b").textContent, in: r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 && r.bottom <= box.top + 80 };
    }),
  };
});

export async function review9Tests(browser, base, shot) {
  await test(browser, "presenter mode's fit zoom fits the projector: every lane and the step column, lane names kept at the top, a tall timeline", async (page) => {
    for (const [id, lanes, mid] of [["redlock-split-votes", 9, 200], ["fenced-gc-pause", 4, 24]]) {
      await page.goto(`${base}index.html#scenario=${id}&present=1`);
      await ready(page);
      await page.waitForSelector(".app.presenter");
      // The whole width (presenter mode starts at readable labels).
      await fitZoom(page);
      await frames(page);
      // Step 0: the lane headers, not empty lifelines.
      const start = await page.evaluate(() => {
        const box = document.querySelector(".timeline-scroller").getBoundingClientRect();
        const inView = (el) => { const r = el.getBoundingClientRect(); return r.height > 0 && r.top >= box.top && r.bottom <= box.bottom && r.left >= box.left - 1 && r.right <= box.right + 1; };
        const title = document.querySelector("#ls-before text");
        // The lane headers (the footers repeat them at the bottom).
        const all = [...document.querySelectorAll(".page [data-layer=lanes] text")].filter((t) => t.getClientRects().length);
        const top = Math.min(...all.map((t) => t.getBoundingClientRect().top));
        const laneTexts = all.filter((t) => t.getBoundingClientRect().top < top + 60);
        return { title: !!title && inView(title), lanes: laneTexts.length, lanesIn: laneTexts.filter(inView).length };
      });
      // The header bar names the run: the picture's own title block is left above the window.
      assert(!start.title, `${id}: the picture's title block is left out at step 0`);
      assert(start.lanes > 0 && start.lanesIn === start.lanes, `${id}: every lane header is in view at step 0: ${JSON.stringify(start)}`);
      const fit = await fitOf(page);
      assert(!fit.sideways && fit.picLeft >= fit.boxLeft - 1 && fit.picRight <= fit.boxRight + 1,
        `${id}: the picture fits the screen's width (step column and every lane): ${JSON.stringify(fit)}`);
      assert(fit.boxHeight >= 0.6 * 1080, `${id}: the timeline takes most of the height (${fit.boxHeight} px)`);
      assert(fit.svgLegendTexts === 0, `${id}: the picture has no legend of its own (the panel shows it)`);
      // Step 0 has drawn nothing yet, and a step's legend names only what it has drawn: the
      // panel is checked mid-run below.
      await shot(page, `presenter-${id}-step0-1920x1080`);
      // Mid-run: the lane names stay at the top of the timeline's window.
      await page.goto(`${base}index.html#scenario=${id}&step=${mid}&present=1`);
      await page.reload();
      await ready(page);
      await page.waitForSelector(".app.presenter");
      await fitZoom(page);
      await frames(page);
      await page.waitForTimeout(300);
      // The lane names are at the top of the window: the kept names, or (fitting the width puts
      // the current step low in the window, the story before it above it, so a short run may
      // show from its top) the picture's own headers.
      const heads = await headsOf(page);
      const own = await page.evaluate(() => {
        const box = document.querySelector(".timeline-scroller").getBoundingClientRect();
        const all = [...document.querySelectorAll(".page [data-layer=lanes] text")].filter((t) => t.getClientRects().length);
        const top = Math.min(...all.map((t) => t.getBoundingClientRect().top));
        return all.filter((t) => t.getBoundingClientRect().top < top + 60).every((t) => t.getBoundingClientRect().top >= box.top);
      });
      assert(heads.shown ? heads.heads.length === lanes && heads.heads.every((h) => h.in) : own,
        `${id}: ${lanes} lane names at the top of the timeline: ${JSON.stringify(heads)}, own headers in view: ${own}`);
      assert(await page.locator(".legend li").count() > 3 && await page.locator(".legend").isVisible(), `${id}: the legend panel lists what the run has drawn by step ${mid}`);
      await shot(page, `presenter-${id}-step${mid}-1920x1080`);
    }
    // The lease chart fits too: its axis labels and last row are on screen.
    await page.goto(`${base}index.html#scenario=redlock-split-votes&step=end&chart=lease&present=1`);
    await page.reload();
    await ready(page);
    await page.waitForSelector(".timeline-scroller.lease .page > svg");
    const lease = await page.evaluate(() => {
      const s = document.querySelector(".timeline-scroller.lease");
      const box = s.getBoundingClientRect();
      const svg = s.querySelector(".page > svg").getBoundingClientRect();
      return { w: s.scrollWidth - s.clientWidth, h: s.scrollHeight - s.clientHeight, svgBottom: svg.bottom, boxBottom: box.bottom, svgRight: svg.right, boxRight: box.right, height: box.height };
    });
    assert(lease.w <= 1 && lease.h <= 1 && lease.svgBottom <= lease.boxBottom + 1 && lease.svgRight <= lease.boxRight + 1,
      `the presenter's lease chart fits its window: ${JSON.stringify(lease)}`);
    await shot(page, "presenter-lease-redlock-split-votes-1920x1080");
  });

  await test(browser, "normal mode at 1920x1080 draws the diagram's labels at 12 px or more", async (page) => {
    const sizes = [];
    for (const id of ["fenced-gc-pause", "naive-gc-pause", "naive-happy-path"]) {
      await page.goto(`${base}index.html#scenario=${id}&step=end`);
      await page.reload();
      await ready(page);
      await frames(page);
      const fit = await fitOf(page);
      sizes.push(`${id} ${fit.label.toFixed(1)} px`);
      assert(fit.label >= 11.9, `${id}: labels are ${fit.label.toFixed(1)} px on screen`);
      assert(fit.svgLegendTexts === 0 && await page.locator(".legend").isVisible(), `${id}: the legend is in its panel, not in the picture`);
    }
    console.log(`      normal-mode label sizes: ${sizes.join(", ")}`);
    await shot(page, "app-naive-happy-path-end-1920x1080");
    // A wide run keeps 12 px labels and scrolls sideways, its lane names kept at the top.
    await page.goto(`${base}index.html#scenario=redlock-split-votes&step=200`);
    await page.reload();
    await ready(page);
    await page.waitForFunction(() => { const r = document.querySelector(".lane-heads"); return r && !r.hidden; }, null, { timeout: 5000 });
    const fit = await fitOf(page);
    assert(fit.label >= 11.9, `redlock-split-votes: labels are ${fit.label.toFixed(1)} px`);
    await shot(page, "app-redlock-split-votes-200-1920x1080");
  });

  await test(browser, "embeds fit their frame: every lane of fenced-gc-pause in view at 1100 px, the full controls apart at 375 px (and zoomed in at 800)", async (page) => {
    // From 1,030 px fitted to the frame (its labels 9 px or more); narrower, zoomed in.
    for (const [w, h] of [[1100, 450], [800, 450], [375, 667]]) {
      await page.setViewportSize({ width: w, height: h });
      for (const controls of ["none", "minimal", "full"]) {
        await page.goto(`${base}embed.html#scenario=fenced-gc-pause&step=34&controls=${controls}`);
        await page.reload();
        await ready(page);
        await frames(page);
        // The glide to the step.
        await page.waitForTimeout(900);
        const seen = await page.evaluate(() => {
          const box = document.querySelector(".timeline-scroller").getBoundingClientRect();
          const inView = (r) => r.width > 0 && r.left >= box.left - 1 && r.right <= box.right + 1;
          // The picture's own lane headers (their names), or the sticky row's when they are scrolled away.
          const heads = [...document.querySelectorAll(".page [data-layer=lanes] text")].filter((t) => t.getClientRects().length)
            .map((t) => ({ name: t.textContent.trim(), in: inView(t.getBoundingClientRect()) }));
          const pic = document.querySelector("#ls-timeline").getBoundingClientRect();
          const scale = pic.width / document.querySelector("#ls-timeline").viewBox.baseVal.width;
          const labels = [...document.querySelectorAll(".page [data-layer=labels] text")].map((t) => Number(t.getAttribute("font-size")) || 16);
          // The sticky row's names count when the picture's own headers are scrolled away.
          const row = document.querySelector(".lane-heads");
          if (row && !row.hidden) {
            for (const h of row.querySelectorAll(".lane-head")) heads.push({ name: h.querySelector("b").textContent, in: inView(h.getBoundingClientRect()) });
          }
          return { heads, label: Math.min(...labels) * scale, sideways: document.querySelector(".timeline-scroller").scrollWidth > document.querySelector(".timeline-scroller").clientWidth + 1 };
        });
        const names = seen.heads.filter((x) => x.in).map((x) => x.name);
        // The full controls' explanation takes the frame's lower part: up to 1024 px they open
        // zoomed in too (fitted, an 800x600 frame showed the title block and a few rows at 6 px,
        // review 27).
        if (w >= 1100) {
          // Scaled to the frame's width: every lane, no sideways scroll.
          assert(["A", "redis", "B", "db"].every((n) => names.includes(n)), `${w}x${h} controls=${controls}: lanes in view ${JSON.stringify(seen)}`);
          assert(!seen.sideways && seen.label >= 6.5, `${w}x${h} controls=${controls}: the picture fits the frame's width: ${JSON.stringify(seen)}`);
        } else {
          // A phone (or the full controls): readable labels at the current step first, scrolling
          // sideways (fitted to the width they were 3 px; a tap zooms out to every lane:
          // review10.mjs).
          assert(seen.label >= 11.9 && seen.sideways,
            `${w}x${h} controls=${controls}: readable at first: ${JSON.stringify(seen)}`);
        }
        if (controls === "full") {
          // No control overlaps another, none is cut off, "of 41" on one line.
          const bar = await page.evaluate(() => {
            const els = [...document.querySelectorAll(".embed-bar button, .embed-bar a, .embed-bar input, .embed-bar select, .embed-bar [data-testid=step-of]")]
              .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden");
            const rects = els.map((e) => ({ t: e.textContent.trim() || e.getAttribute("aria-label"), r: e.getBoundingClientRect() }));
            const overlaps = [];
            for (let i = 0; i < rects.length; i++) for (let j = i + 1; j < rects.length; j++) {
              const a = rects[i].r, b = rects[j].r;
              if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) overlaps.push(`${rects[i].t} / ${rects[j].t}`);
            }
            const cut = els.filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > innerWidth + 1).map((e) => e.textContent.trim());
            const of = document.querySelector(".embed-bar [data-testid=step-of]").getBoundingClientRect();
            return { overlaps, cut, ofTall: of.height };
          });
          assert(!bar.overlaps.length && !bar.cut.length && bar.ofTall < 30, `${w}x${h} full controls: ${JSON.stringify(bar)}`);
        }
        await shot(page, `embed-fenced-34-${controls}-${w}x${h}`);
      }
    }
  });

  await test(browser, "small things: no backticks, the time-mode button says what it does, the what-if menu at the end, own scenario link", async (page) => {
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=end`);
    await ready(page);
    const all = await page.evaluate(() => document.body.innerText);
    assert(!all.includes("`"), `backticks in the page: ${all.split("\n").filter((l) => l.includes("`")).join(" | ")}`);
    assert((await text(page, "[data-testid=time-mode]")) === "Show to scale", await text(page, "[data-testid=time-mode]"));
    await page.click("[data-testid=time-mode]");
    await page.waitForFunction(() => location.hash.includes("mode=scale"));
    assert((await text(page, "[data-testid=time-mode]")) === "Show logical time", await text(page, "[data-testid=time-mode]"));
    assert((await text(page, "[data-testid=whatif-ended]")).includes("nothing left to change"), "the what-if menu says why nothing can be injected");
    // A bad link's message has no backticks either.
    await page.goto(`${base}index.html#scenario=nope&step=abc`);
    await page.reload();
    await page.waitForSelector(".notice.error");
    assert(!(await text(page, ".notice.error")).includes("`"), await text(page, ".notice.error"));
    // "Your own scenario" is reachable from the top of the picker.
    await page.click("[data-testid=to-own]");
    await page.waitForFunction(() => document.querySelector("#own-scenario")?.open);
    const own = await page.locator("#own-scenario").boundingBox();
    assert(own.y >= 0 && own.y < 1080, `the panel is brought into view: ${JSON.stringify(own)}`);
    // A bad file's error is brought into view.
    await page.setInputFiles("[data-testid=upload]", { name: "bad.toml", mimeType: "text/plain", buffer: Buffer.from("name = \"x\"\n[lock]\nttl_ms = -1\n") });
    await page.waitForSelector("[data-testid=upload-error]");
    await page.waitForTimeout(300);
    const err = await page.locator("[data-testid=upload-error]").boundingBox();
    assert(err.y >= 0 && err.y + Math.min(err.height, 200) <= 1080, `the upload error is in view: ${JSON.stringify(err)}`);
  });

  await test(browser, "Down goes to the next row of the timeline, past steps sharing one; Up back", async (page) => {
    await page.goto(`${base}index.html#scenario=redlock-split-votes`);
    await ready(page);
    const step = () => page.inputValue("input[aria-label='Current step']");
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction(() => location.hash.includes("step="));
    const first = Number(await step());
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction((s) => !location.hash.includes(`step=${s}&`) && !location.hash.endsWith(`step=${s}`), first);
    const second = Number(await step());
    // redlock-split-votes' first row holds steps 1-3: Down skips them at once.
    assert(second - first > 1, `Down went from step ${first} to ${second}`);
    // Up: back to the row above, whole (its last step).
    await page.keyboard.press("ArrowUp");
    await page.waitForFunction((s) => location.hash.includes(`step=${s}`), second - 1);
  });

  await test(browser, "a file link still being read does not replace a newer pick", async (page) => {
    // A link carrying a file, made by the app itself.
    await page.goto(`${base}index.html`);
    await page.waitForSelector(".picker");
    const src = fs.readFileSync(path.join(webDir, "..", "assets", "scenarios", "naive-gc-pause.toml"), "utf8").replace('name = "naive-gc-pause"', 'name = "slow-file"');
    await page.locator(".upload summary").click();
    await page.fill(".upload textarea", src);
    await page.click("text=Run it");
    await ready(page);
    await page.waitForFunction(() => location.hash.includes("&src="));
    const link = page.url();
    // A fresh page whose TOML module arrives late.
    const slow = await page.context().browser().newContext({ viewport: { width: 1920, height: 1080 } });
    const p2 = await slow.newPage();
    const problems = [];
    p2.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
    await p2.route("**/lockstep_toml_bg.wasm", async (route) => { await new Promise((r) => setTimeout(r, 2000)); await route.continue(); });
    await p2.goto(link);
    await p2.waitForSelector(".scenario[data-id=fenced-gc-pause]");
    await p2.click(".scenario[data-id=fenced-gc-pause]");
    await p2.waitForSelector("[data-testid=step-of]");
    await p2.waitForTimeout(3000);
    const hash = await p2.evaluate(() => location.hash);
    const title = await p2.locator(".run-title").textContent();
    await slow.close();
    assert(hash.includes("scenario=fenced-gc-pause") && !hash.includes("slow-file"), `the late file replaced the pick: ${hash} (${title})`);
    assert(!problems.length, problems.join("\n"));
  });

  await test(browser, "step time on the largest runs (key to the frame's start, 30 steps)", async (page) => {
    const out = [];
    for (const [id, step] of [["redlock-delayed-restart", 700], ["redlock-split-votes", 200]]) {
      const times = await stepTimes(page, base, id, step, 30);
      out.push(`${id} median ${median(times).toFixed(1)} ms (min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)})`);
    }
    console.log(`      step time, key to the frame's start (a shared, loaded machine): ${out.join("; ")}`);
  });
}

// Browser tests of session 13's work on issue 7 (a presenter's review): presenter mode keeps one
// type size for a run's explanations; a Redlock run wider than a 1280x720 projector follows the
// step with few sideways moves and never hides the current step's labels under the pinned step
// column; a small zoomed embed shows the current step's label by its receiver.
import { test, assert, ready, openZoomed, frames } from "./harness.mjs";


/** Waits until the step box says `n`. */
const atStep = (page, n) => page.waitForFunction((n) => document.querySelector("input[aria-label='Current step']")?.value === String(n), n);

/** Waits until the timeline's scroller has stopped moving (a glide takes a few hundred ms). */
const settled = (page) => page.evaluate(() => new Promise((resolve) => {
  const s = document.querySelector(".timeline-scroller");
  let last = `${s.scrollLeft} ${s.scrollTop}`;
  let still = 0;
  const look = () => {
    const now = `${s.scrollLeft} ${s.scrollTop}`;
    still = now === last ? still + 1 : 0;
    last = now;
    if (still >= 6) resolve(); else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}));

/** The explanation's type size (its words, not the step's number) in px. */
const explanationPx = (page) => page.evaluate(() => {
  const p = document.querySelector(".side > .explanation .why");
  return parseFloat(getComputedStyle(p).fontSize);
});

/** The current step's words: the live layer's copies of its labels and notes. */
const LIVE_WORDS = "#ls-labels-live text, #ls-notes-live text, #ls-crashes-live text";

/**
 * The current step's words that the pinned step column
 * covers, even in part, and the scroller's sideways position.
 */
const underPin = (page) => page.evaluate((LIVE_WORDS) => {
  const s = document.querySelector(".timeline-scroller");
  const pinned = !s.hasAttribute("data-unpinned");
  const pin = document.querySelector(".pin").getBoundingClientRect();
  const box = s.getBoundingClientRect();
  const words = [...document.querySelectorAll(LIVE_WORDS)]
    .filter((t) => t.textContent.trim() && t.getClientRects().length && !t.closest(".pin-box"))
    .map((t) => ({ text: t.textContent.trim(), r: t.getBoundingClientRect() }));
  const hidden = pinned ? words.filter(({ r }) => r.left < pin.right - 1 && r.right > box.left + 1) : [];
  return { left: s.scrollLeft, words: words.length, hidden: hidden.map(({ text, r }) => `${text} @${Math.round(r.left)}..${Math.round(r.right)} (pin ${Math.round(pin.right)})`) };
}, LIVE_WORDS);

export async function review13Tests(browser, base, shot) {
  for (const size of [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }]) {
    await test(browser, `presenter mode at ${size.width}x${size.height} keeps one type size for a run's explanations`, async (page) => {
      for (const id of ["fenced-gc-pause", "redlock-gc-pause"]) {
        await page.goto(`${base}index.html?${id}-${size.width}#scenario=${id}&step=0&present=1`);
        await ready(page);
        await frames(page);
        const total = Number((await page.locator("[data-testid=step-of]").textContent()).replace(/\D+/g, ""));
        const sizes = new Set([await explanationPx(page)]);
        for (let step = 1; step <= total; step++) {
          await page.keyboard.press("ArrowRight");
          await atStep(page, step);
          await frames(page);
          sizes.add(await explanationPx(page));
          const cut = await page.evaluate(() => { const p = document.querySelector(".side > .explanation"); return p.scrollHeight - p.clientHeight; });
          assert(cut <= 1, `${id} step ${step}: the explanation is cut by ${cut} px`);
        }
        assert(sizes.size <= 2, `${id}: the explanation's type takes ${sizes.size} sizes: ${[...sizes].join(", ")}`);
        if (size.width === 1920) assert(Math.min(...sizes) >= 16, `${id}: the explanation's type goes down to ${Math.min(...sizes)} px`);
        await shot(page, `presenter-${size.width}-${id}-end-one-size`);
      }
    }, { viewport: size });
  }

  await test(browser, "presenter mode at 1280x720: a Redlock run follows 30 steps with few sideways moves, labels clear of the pinned column", async (page) => {
    for (const [id, from, max] of [["redlock-gc-pause", 0, 10], ["redlock-clock-jump", 0, 11]]) {
      await page.goto(`${base}index.html?${id}#scenario=${id}&step=${from}&present=1`);
      await ready(page);
      await frames(page);
      await settled(page);
      let moves = 0;
      let left = (await underPin(page)).left;
      for (let step = from + 1; step <= from + 30; step++) {
        await page.keyboard.press("ArrowRight");
        await atStep(page, step);
        await frames(page);
        await settled(page);
        const now = await underPin(page);
        if (Math.abs(now.left - left) > 1) moves++;
        left = now.left;
        assert(now.hidden.length === 0, `${id} step ${step}: the pinned column covers the current step's words: ${now.hidden.join("; ")}`);
        if (step % 10 === 0) await shot(page, `presenter-1280-${id}-${step}`);
      }
      // The run alternates between lanes further apart than the window is wide: each of these
      // moves shows a step's end that was out of view (main's following made 11 and 11), or
      // (since session 14, one move in redlock-gc-pause) a step's words whole beside its end.
      assert(moves <= max, `${id}: 30 steps scroll sideways ${moves} times (at most ${max})`);
    }
  }, { viewport: { width: 1280, height: 720 } });

  await test(browser, "a small zoomed embed shows step 34's label by its arrow's receiving end", async (page) => {
    for (const size of [{ width: 640, height: 360 }, { width: 375, height: 667 }]) {
      await page.setViewportSize(size);
      await openZoomed(page, `${base}embed.html?${size.width}#scenario=fenced-gc-pause&step=34&controls=minimal`, 600);
      await settled(page);
      const v = await page.evaluate(() => {
        const s = document.querySelector(".timeline-scroller");
        const box = s.getBoundingClientRect();
        const pin = s.hasAttribute("data-unpinned") ? box.left : document.querySelector(".pin").getBoundingClientRect().right;
        const svg = document.querySelector("#ls-timeline");
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        const cur = document.querySelector("rect.current-outline");
        const [lo] = cur.dataset.ends.split(" ").map((x) => Number(x) * scale + svg.getBoundingClientRect().left);
        // The step's label wherever the page shows it: drawn in the picture, or beside the receiver.
        const shown = [...document.querySelectorAll(".page svg text, .step-caption")]
          .filter((t) => t.textContent.trim() === "rejected — 33 < last_token 34" && t.getClientRects().length && !t.closest(".pin-box"))
          .map((t) => { const r = t.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; })
          .filter((r) => r.left >= pin - 1 && r.right <= box.right + 1 && r.top >= box.top && r.bottom <= box.bottom);
        return { receiver: lo, from: pin, to: box.right, shown };
      });
      assert(v.receiver >= v.from && v.receiver <= v.to, `${size.width}x${size.height}: the receiving end is out of view: ${JSON.stringify(v)}`);
      assert(v.shown.length > 0, `${size.width}x${size.height}: step 34's label is not in view: ${JSON.stringify(v)}`);
      // Near the receiver: within a third of the window's width.
      const near = v.shown.some((r) => Math.min(Math.abs(r.left - v.receiver), Math.abs(r.right - v.receiver)) <= (v.to - v.from) / 3);
      assert(near, `${size.width}x${size.height}: step 34's label is far from its receiver: ${JSON.stringify(v)}`);
      await shot(page, `embed-zoomed-fenced-gc-pause-34-${size.width}x${size.height}-label`);
    }
  });

  await test(browser, "an embed's full controls in a 640x360 frame wrap rather than run over each other", async (page) => {
    for (const size of [{ width: 640, height: 360 }, { width: 375, height: 667 }, { width: 880, height: 500 }]) {
      await page.setViewportSize(size);
      await page.goto(`${base}embed.html?full-${size.width}#scenario=fenced-gc-pause&step=34&controls=full`);
      await ready(page);
      const clash = await page.evaluate(() => {
        const boxes = [...document.querySelectorAll(".embed-bar button, .embed-bar a.open, .embed-bar input, .embed-bar select")]
          .filter((e) => e.getClientRects().length)
          .map((e) => ({ what: e.getAttribute("aria-label") || e.textContent.trim(), r: e.getBoundingClientRect() }));
        const out = [];
        for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i].r, b = boxes[j].r;
          if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push(`${boxes[i].what} / ${boxes[j].what}`);
        }
        const bar = document.querySelector(".embed-bar").getBoundingClientRect();
        const outside = boxes.filter((b) => b.r.right > bar.right + 1 || b.r.left < bar.left - 1).map((b) => b.what);
        return { out, outside };
      });
      assert(clash.out.length === 0, `${size.width}x${size.height}: controls overlap: ${clash.out.join("; ")}`);
      assert(clash.outside.length === 0, `${size.width}x${size.height}: controls cut at the frame's edge: ${clash.outside.join("; ")}`);
      await shot(page, `embed-full-controls-${size.width}x${size.height}`);
    }
  });
}

// Browser tests of session 21's work on issue 7: the caption of a wide step's words keeps off the
// words drawn near its line.
import { test, assert, ready } from "./harness.mjs";

/// The caption's box, if it shows, and the words drawn in the picture that it covers.
const COVERED = () => {
  const cap = document.querySelector(".step-caption");
  if (!cap || cap.hidden) return null;
  const c = cap.getBoundingClientRect();
  const covered = [...document.querySelectorAll(".page svg text")]
    .filter((t) => getComputedStyle(t).visibility !== "hidden" && t.textContent.trim() !== cap.textContent.trim())
    .map((t) => [t.textContent.trim(), t.getBoundingClientRect()])
    .filter(([, r]) => r.width > 0 && Math.min(r.right, c.right) - Math.max(r.left, c.left) > 2 && Math.min(r.bottom, c.bottom) - Math.max(r.top, c.top) > 2)
    .map(([w]) => w);
  return { caption: cap.textContent.trim(), below: cap.hasAttribute("data-below"), covered };
};

export async function review21Tests(browser, base, shot) {
  await test(browser, "a wide step's caption covers none of the words drawn near its line", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.emulateMedia({ reducedMotion: "reduce" });
    // consensus-fenced-failover #101: A receives "rejected — 33 < last_token 34" from the
    // database, 1,600 px away, just under the line of A's note "A's client gives up its lease";
    // the caption beside A hid the note's last line.
    const runs = [["consensus-fenced-failover", 94, 107], ["redlock-gc-pause", 30, 40], ["redlock-gc-pause", 74, 80]];
    let captions = 0;
    for (const [id, from, to] of runs) {
      await page.goto(`${base}index.html#scenario=${id}&step=${from}&present=1`);
      await ready(page);
      for (let step = from + 1; step <= to; step++) {
        await page.keyboard.press("ArrowRight");
        await page.waitForTimeout(350);
        const got = await page.evaluate(COVERED);
        if (!got) continue;
        captions++;
        assert(got.covered.length === 0, `${id} #${step}: the caption "${got.caption}" covers ${JSON.stringify(got.covered)}`);
        if (id === "consensus-fenced-failover" && step === 101) {
          assert(got.below, `#101: the caption is not under the line: ${JSON.stringify(got)}`);
          await shot(page, "caption-under-the-line-consensus-fenced-failover-101-1280x720");
        }
      }
    }
    assert(captions >= 5, `only ${captions} captions shown`);
  });
}

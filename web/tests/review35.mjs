// Browser tests of session 35's work: presenting a run whose note spans two lines, stepping
// leaves no word cut under the lane names; a pasted scenario's link names the file as before;
// the warnings of one's own scenario stay shown after a what-if change.
import { assert, present, frames, ready, test } from "./harness.mjs";

/** Words drawn in the timeline's window that the band of lane names cuts through by more than
 * 3 px either side (a note's two lines of words reach a pixel or two past its box). */
const BAND_CUT = () => {
  const sc = document.querySelector(".timeline-scroller");
  const s = sc.getBoundingClientRect();
  const heads = document.querySelector(".lane-heads");
  const band = heads && !heads.hidden ? heads.getBoundingClientRect().bottom : s.top;
  const cut = [];
  for (const t of sc.querySelectorAll(".page svg text")) {
    if (t.closest("[data-cut]") || getComputedStyle(t).visibility === "hidden") continue;
    const r = t.getBoundingClientRect();
    if (r.width === 0 || r.right < s.left || r.left > s.right) continue;
    if (r.top < band - 3 && r.bottom > band + 3) cut.push(t.textContent.trim());
  }
  return cut;
};

/** A scenario whose pause waits for a label no event has: it runs, and says the pause never
 * happened. */
const NEVER = `name = "mine"\ntitle = "Mine"\nsummary = "A pause that waits for a label no event has."\nexpect = "safe"\n\n[lock]\nkind = "redis"\nttl_ms = 5000\n\n[resource]\nfencing = "enforce"\n\n[[workers]]\nname = "A"\nfencing = true\n\n[[faults]]\nafter = "leese check"\nkind = "pause"\ntarget = "A"\nduration_ms = 10000\n`;

export async function review35Tests(browser, base, shot) {
  // The window's top stopped on a line that overlaps a two-line note above it, cutting the
  // note's second line, "(A's TTL ran out)", for eight steps: the edge above the note was
  // further than the snap reached at a projector's zoom.
  await test(browser, "presenting naive-network-delay at 1920x1080, stepping cuts no note under the lane names", async (page) => {
    await present(page, base, "naive-network-delay", { width: 1920, height: 1080, step: 30 });
    for (let step = 31; step <= 36; step++) {
      await page.keyboard.press("ArrowRight");
      await page.waitForTimeout(700);
      await frames(page);
      const cut = await page.evaluate(BAND_CUT);
      assert(cut.length === 0, `step ${step} cuts ${JSON.stringify(cut)} under the lane names`);
    }
    await shot(page, "review35-network-delay-1920-step36");
  }, { viewport: { width: 1920, height: 1080 } });

  await test(browser, "a pasted scenario's link names its file pasted.toml after a reload, as before it", async (page) => {
    await page.goto(`${base}index.html`);
    await page.waitForSelector(".picker");
    await page.click(".upload summary");
    await page.fill(".upload textarea", NEVER);
    await page.click(".upload button[type=submit]");
    await ready(page);
    const before = await page.locator(".notice").textContent();
    assert(/pasted\.toml:18:\d+: faults\[0\]\.after:/.test(before), `the notice reads ${JSON.stringify(before)}`);
    assert(page.url().includes("&file=pasted.toml"), `the link is ${page.url()}`);
    await page.reload();
    await ready(page);
    const after = await page.locator(".notice").textContent();
    assert(/pasted\.toml:18:\d+: faults\[0\]\.after:/.test(after) && !after.includes("mine.toml"),
      `after a reload the notice reads ${JSON.stringify(after)}`);
  });

  await test(browser, "one's own scenario's warnings stay shown after a what-if change, and not once dismissed", async (page) => {
    await page.goto(`${base}index.html`);
    await page.waitForSelector(".picker");
    await page.setInputFiles("[data-testid=upload]", { name: "mine.toml", mimeType: "text/plain", buffer: Buffer.from(NEVER) });
    await ready(page);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await page.selectOption("[data-testid=fault-kind]", "pause");
    await page.selectOption("[data-testid=fault-target]", "A");
    await page.click("text=Inject now");
    await page.waitForSelector("[data-testid=branch]");
    const notice = await page.locator(".notice").textContent();
    assert(notice.includes("never happened") && notice.includes("mine.toml:18:"), `after the what-if the notice reads ${JSON.stringify(notice)}`);
    await page.click(".notice button");
    assert(!(await page.locator(".notice").count()), "the notice stayed after it was dismissed");
    await page.click("text=Inject now");
    await page.waitForTimeout(300);
    assert(!(await page.locator(".notice").count()), "a dismissed warning came back with the next change");
  });
}

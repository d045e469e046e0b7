// Browser tests of session 32's work (an outside review of the app as a workshop presenter): a
// clicker's keys step wherever a click left the focus (the speed list, the step number box).
import { test, assert, present } from "./harness.mjs";

const STEP = "input[aria-label='Current step']";
const SPEED = "select[aria-label='Play speed']";
const stepNow = (page) => page.locator(STEP).inputValue();

/** The notes' boxes the pinned step column's edge slices while their words show: each a rect
 * drawn just before a shown text, crossing the column's right edge. */
const SLICED_BOXES = () => {
  const pin = document.querySelector(".pin-box")?.getBoundingClientRect();
  if (!pin || pin.width === 0) return null;
  const edge = pin.right;
  const out = [];
  for (const t of document.querySelectorAll(".page > svg text")) {
    if (!t.getClientRects().length || getComputedStyle(t).visibility === "hidden" || !t.textContent.trim()) continue;
    let el = t.previousElementSibling;
    for (let i = 0; i < 6 && el && el.tagName !== "text"; i++, el = el.previousElementSibling) {
      if (el.tagName !== "rect" || getComputedStyle(el).visibility === "hidden") continue;
      const r = el.getBoundingClientRect(), w = t.getBoundingClientRect();
      const holds = r.left <= w.left + 2 && r.right >= w.right - 2 && r.top <= w.top + 2 && r.bottom >= w.bottom - 2;
      if (holds && r.width < w.width + 80 && r.left < edge - 1.5 && r.right > edge + 1.5) out.push(t.textContent.trim());
    }
  }
  return out;
};

export async function review32Tests(browser, base) {
  await test(browser, "a clicker steps after the speed list or the step number box was clicked, and a number being typed keeps its caret keys", async (page) => {
    await present(page, base, "fenced-gc-pause", { width: 1280, height: 720, tag: "r32p", step: 3 });
    const speed = await page.locator(SPEED).inputValue();
    // Clicked (the list opens), then Esc: the focus stays on the list.
    await page.locator(SPEED).click();
    await page.keyboard.press("Escape");
    await page.keyboard.press("PageDown");
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((s) => document.querySelector(s).value === "5", STEP);
    await page.keyboard.press("PageUp");
    await page.waitForFunction((s) => document.querySelector(s).value === "4", STEP);
    // Space too, which would open the list (a clicker may send it).
    await page.locator(SPEED).focus();
    await page.keyboard.press(" ");
    await page.waitForFunction((s) => document.querySelector(s).value === "5", STEP);
    await page.keyboard.press("PageUp");
    await page.waitForFunction((s) => document.querySelector(s).value === "4", STEP);
    assert(await page.locator(SPEED).inputValue() === speed, `the clicker changed the speed: ${await page.locator(SPEED).inputValue()} (was ${speed})`);
    // Clicked into, left as it was: → and Space step.
    await page.locator(STEP).click();
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((s) => document.querySelector(s).value === "5", STEP);
    await page.locator(STEP).click();
    await page.keyboard.press(" ");
    await page.waitForFunction((s) => document.querySelector(s).value === "6", STEP);
    // A number being typed: ← moves the caret, and Enter goes there.
    await page.locator(STEP).click();
    await page.keyboard.press("Control+A");
    await page.keyboard.type("12");
    await page.keyboard.press("ArrowLeft");
    await page.waitForTimeout(300);
    assert(await stepNow(page) === "12", `typing was interrupted: the box shows ${await stepNow(page)}`);
    const caption = await page.locator("[data-testid=step-of]").textContent();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => /Step 12 of/.test(document.body.innerText));
    assert(/of 41/.test(caption), caption);
  });

  await test(browser, "scrolled sideways, a note whose box the pinned step column's edge would slice is hidden with its box, though its words are whole", async (page) => {
    // fenced-gc-pause at 16 px labels (a 1280x1080 window; found at 1280x720 before readable
    // labels followed the screen's height): "A resumes" at #30 showed with its box's left side
    // under the pinned column (a review).
    await present(page, base, "fenced-gc-pause", { width: 1280, height: 1080, tag: "r32pin", step: 0 });
    const seen = [];
    for (let step = 1; step <= 41; step++) {
      await page.keyboard.press("ArrowRight");
      await page.waitForFunction((n) => document.querySelector("input[aria-label='Current step']")?.value === String(n), step);
      await page.waitForTimeout(250);
      const sliced = await page.evaluate(SLICED_BOXES);
      if (sliced === null) continue;
      seen.push(step);
      assert(sliced.length === 0, `#${step}: boxes sliced by the step column's edge: ${JSON.stringify(sliced)}`);
    }
    assert(seen.length > 10, `the step column was pinned at only ${seen.length} steps`);
  });
}

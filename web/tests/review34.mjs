// Browser tests of session 34's work: the last step's window stops between lines under the lane
// names, and the lease chart's pinned time axis hides the tick words its names column would cut;
// from a newcomer's review: Space presses a control reached with Tab, Back returns to the
// scenario before and to the list, a what-if branch compares its verdict with the run as
// written and says when an earlier change drops a later one, a worker can be crashed, and a
// scenario opened from the address bar starts with its panel at the top.
import { test, assert, present, frames, ready } from "./harness.mjs";

/** The words drawn in the timeline's window that the band of lane names cuts through (their
 * tops under it, their bottoms below it), with the band's bottom and the scroll. */
const BAND_CUT = () => {
  const sc = document.querySelector(".timeline-scroller");
  const s = sc.getBoundingClientRect();
  const band = document.querySelector(".lane-heads")?.getBoundingClientRect().bottom ?? s.top;
  const cut = [];
  for (const t of sc.querySelectorAll(".page svg text")) {
    if (t.closest("[data-cut]") || getComputedStyle(t).visibility === "hidden") continue;
    const r = t.getBoundingClientRect();
    if (r.width === 0 || r.right < s.left || r.left > s.right) continue;
    if (r.top < band - 1 && r.bottom > band + 1) cut.push(t.textContent.trim());
  }
  return { band, top: sc.scrollTop, cut };
};

/** The time axis's tick words shown in an embed's lease chart (its pinned copy at the window's
 * foot, or the chart's own scrolled into the window) that cross its pinned row names' right
 * edge. */
const AXIS_CUT = () => {
  const s = document.querySelector(".timeline-scroller.lease");
  const names = s.querySelector(".lease-pin > svg")?.getBoundingClientRect();
  const axis = s.querySelector(".lease-axis");
  const copy = axis && getComputedStyle(axis).display !== "none";
  const box = s.getBoundingClientRect();
  const inWindow = (r) => r.top >= box.top && r.bottom <= box.top + s.clientTop + s.clientHeight;
  const own = [...s.querySelectorAll(".page > svg text")].filter((t) => /^\d+ s$/.test(t.textContent.trim()) && inWindow(t.getBoundingClientRect()));
  const ticks = copy ? [...s.querySelectorAll(".lease-axis text")] : own;
  const cut = [];
  for (const t of ticks) {
    if (getComputedStyle(t).visibility === "hidden" || !names) continue;
    const r = t.getBoundingClientRect();
    if (r.left < names.right - 1 && r.right > names.right + 1) cut.push(t.textContent.trim());
  }
  return { shown: copy || own.length > 0, cut, ticks: ticks.length };
};

export async function review34Tests(browser, base, shot) {
  // The last step's window went to the picture's very end, and at these sizes that edge cut a
  // label in half under the lane names (a review: "(integer) 1: deleted" at 1280x720).
  for (const [id, width, height] of [
    ["fenced-gc-pause", 1280, 720],
    ["naive-gc-pause", 1920, 1080],
    ["consensus-session-suspended", 1024, 768],
  ]) {
    await test(browser, `presenting ${id} at ${width}x${height}, the last step cuts no label under the lane names`, async (page) => {
      await present(page, base, id, { width, height, tag: "r34end" });
      await page.keyboard.press("End");
      await page.waitForTimeout(700);
      await frames(page);
      const m = await page.evaluate(BAND_CUT);
      assert(m.cut.length === 0, `words cut by the lane names' band: ${JSON.stringify(m)}`);
      // Reached by stepping, the end is the same.
      await page.keyboard.press("ArrowLeft");
      await page.waitForTimeout(400);
      await page.keyboard.press("ArrowRight");
      await page.waitForTimeout(700);
      await frames(page);
      const again = await page.evaluate(BAND_CUT);
      assert(again.cut.length === 0 && Math.abs(again.top - m.top) < 2, `stepped onto the end: ${JSON.stringify(again)} (End: ${m.top})`);
      await shot(page, `r34-end-${id}-${width}x${height}`);
    });
  }

  await test(browser, "an 800 px embed's lease chart, zoomed in, shows no tick word of its pinned time axis cut by the row names", async (page) => {
    await page.setViewportSize({ width: 800, height: 450 });
    await page.goto(`${base}embed.html?r34axis#scenario=fenced-gc-pause&step=41&controls=minimal&chart=lease`);
    await page.waitForSelector(".timeline-scroller.lease .page > svg");
    await page.waitForTimeout(600);
    const m = await page.evaluate(AXIS_CUT);
    assert(m.shown && m.ticks > 0, `no time axis shows: ${JSON.stringify(m)}`);
    assert(m.cut.length === 0, `tick words cut by the names column: ${JSON.stringify(m)}`);
    // Scrolled by hand to the chart's start, every tick shows again.
    await page.evaluate(() => { document.querySelector(".timeline-scroller.lease").scrollLeft = 0; });
    await page.waitForTimeout(300);
    const start = await page.evaluate(AXIS_CUT);
    assert(start.cut.length === 0, `at the start: ${JSON.stringify(start)}`);
    await shot(page, "r34-lease-axis-800");
  });

  await test(browser, "Space presses a button or checkbox reached with Tab, and steps after a mouse click on one", async (page) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(`${base}index.html?r34space#scenario=naive-gc-pause&step=10`);
    await ready(page);
    const toScale = page.getByRole("button", { name: "Show to scale" });
    await toScale.focus();
    // Focus put there by script is not shown; a Tab round makes it the keyboard's.
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    assert(await toScale.evaluate((b) => b.matches(":focus-visible")), "the button is not keyboard-focused");
    await page.keyboard.press(" ");
    await page.waitForFunction(() => location.hash.includes("mode=scale"));
    assert(page.url().includes("step=10"), `Space stepped: ${page.url()}`);
    // Clicked with the mouse, as a presenter does before picking up the clicker: Space steps.
    await page.evaluate(() => document.activeElement.blur());
    await page.getByRole("button", { name: "Show logical time" }).click();
    await page.waitForFunction(() => !location.hash.includes("mode=scale"));
    await page.keyboard.press(" ");
    await page.waitForFunction(() => location.hash.includes("step=11"));
    // The idempotency checkbox, tabbed to, is ticked by Space, and the run branches.
    const box = page.getByRole("checkbox", { name: "Idempotency keys on every payout" });
    await box.focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press(" ");
    await page.waitForSelector("[data-testid=branch]");
    assert(await box.isChecked(), "Space did not tick the checkbox");
    assert(page.url().includes("step=11"), `Space on the checkbox stepped: ${page.url()}`);
  });

  await test(browser, "the browser's Back returns from a scenario to the one opened before it, and from the first to the list", async (page) => {
    await page.goto(`${base}index.html?r34back`);
    await page.waitForSelector(".picker");
    await page.click(".picker button.scenario[data-id=naive-gc-pause]");
    await ready(page);
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => location.hash.includes("step=3"));
    await page.keyboard.press("s");
    await page.waitForSelector(".picker");
    await page.click(".picker button.scenario[data-id=fenced-gc-pause]");
    await page.waitForFunction(() => location.hash.includes("scenario=fenced-gc-pause"));
    await page.goBack();
    await page.waitForFunction(() => location.hash.includes("scenario=naive-gc-pause"));
    await page.waitForFunction(() => document.querySelector("input[aria-label='Current step']")?.value === "3");
    assert((await page.locator("h1, .run-title").first().textContent()).length > 0, "no title");
    await page.goBack();
    await page.waitForSelector(".picker");
    assert(page.url().startsWith(`${base}index.html?r34back`) && !page.url().includes("scenario="), `Back to the list left ${page.url()}`);
    // Forward again opens the run where it was.
    await page.goForward();
    await page.waitForFunction(() => location.hash.includes("scenario=naive-gc-pause&step=3"));
    await page.waitForSelector(".picker", { state: "detached" });
  });

  await test(browser, "a what-if branch's verdict says how the scenario as written ends, and an earlier change says it dropped a later one", async (page) => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`${base}index.html?r34branch#scenario=fenced-gc-pause&step=20`);
    await ready(page);
    await page.selectOption("select[aria-label='Database fencing mode']", "off");
    await page.waitForSelector("[data-testid=branch]");
    await page.keyboard.press("End");
    await page.waitForFunction(() => document.querySelector(".verdict .expect")?.textContent.includes("As written"));
    const said = await page.locator(".verdict .expect").textContent();
    assert(said.includes("As written the scenario ends “safe”; these changes make it “double-write”"), `the verdict says ${JSON.stringify(said)}`);
    // Whole, wrapped to the panel: on one line it was cut at "make it “" (a review).
    const cut = await page.locator(".verdict .expect").evaluate((p) => p.scrollWidth > p.clientWidth + 1);
    assert(!cut, "the verdict's comparison runs past its panel");
    // A TTL change at step 5 branches before the fencing change, which goes, and says so.
    await page.fill("input[aria-label='Current step']", "5");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => location.hash.includes("step=5"));
    await page.getByRole("button", { name: /Set the TTL to 4000 ms/ }).click();
    await page.waitForFunction(() => document.querySelector(".notice")?.textContent.includes("dropped"));
    const notice = await page.locator(".notice").textContent();
    assert(notice.includes("Your later change (after step 20: fencing = off) was dropped"), `the notice reads ${JSON.stringify(notice)}`);
    const branch = await page.locator("[data-testid=branch]").textContent();
    assert(branch.includes("TTL") && !branch.includes("fencing"), `the branch list reads ${JSON.stringify(branch)}`);
  });

  await test(browser, "an injected fault that lands after the rest of a node's handling is the step the view goes to", async (page) => {
    // Step 5 of naive-happy-path: A holds the lock, and the same handling sends its status read
    // at 6; a pause lands after 6, and is step 7.
    await page.goto(`${base}index.html?r34onto#scenario=naive-happy-path&step=5`);
    await ready(page);
    await page.selectOption("[data-testid=fault-kind]", "pause");
    await page.selectOption("[data-testid=fault-target]", "A");
    await page.click("text=Inject now");
    await page.waitForSelector("[data-testid=branch]");
    await page.waitForFunction(() => location.hash.includes("step=7"));
    const label = await page.locator(".explanation").first().textContent();
    assert(/paused/i.test(label), `step 7 is not the pause: ${JSON.stringify(label)}`);
  });

  await test(browser, "the what-if menu crashes a worker, and the branch runs", async (page) => {
    await page.goto(`${base}index.html?r34crash#scenario=naive-happy-path&step=12`);
    await ready(page);
    await page.selectOption("[data-testid=fault-kind]", "crash");
    const targets = await page.locator("[data-testid=fault-target] option").allTextContents();
    assert(targets.includes("A") && targets.includes("redis") && !targets.includes("db"), `crash targets: ${JSON.stringify(targets)}`);
    await page.selectOption("[data-testid=fault-target]", "A");
    await page.click("text=Inject now");
    await page.waitForSelector("[data-testid=branch]");
    assert(!(await page.locator(".notice.error").count()), "an error notice after crashing A");
  });

  await test(browser, "a scenario opened from the address bar starts with its side panel at the top", async (page) => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`${base}index.html?r34side#scenario=fenced-gc-pause&step=5`);
    await ready(page);
    await page.evaluate(() => { document.querySelector("main.workspace .side").scrollTop = 10000; });
    const scrolled = await page.evaluate(() => document.querySelector("main.workspace .side").scrollTop);
    assert(scrolled > 0, "the panel does not scroll at this size: the test shows nothing");
    await page.evaluate(() => { location.hash = "#scenario=consensus-session-suspended&step=end"; });
    await page.waitForFunction(() => document.querySelector("[data-testid=step-of]")?.textContent.includes("117"));
    await page.waitForTimeout(300);
    const top = await page.evaluate(() => document.querySelector("main.workspace .side").scrollTop);
    assert(top === 0, `the new scenario's panel is scrolled ${top} px down`);
  });
}

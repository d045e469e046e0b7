// Browser tests of session 24's work on issue 7.
import { test, assert, ready } from "./harness.mjs";

/** The picture's own verdict line ("Verdict: …") and the timeline window, in screen pixels. */
const verdictInView = (page) => page.evaluate(() => {
  const s = document.querySelector(".timeline-scroller").getBoundingClientRect();
  const t = [...document.querySelectorAll(".timeline-scroller svg text")].find((x) => x.textContent.trim().startsWith("Verdict:"));
  const b = t && t.getBoundingClientRect();
  return { window: s.toJSON(), verdict: b && b.toJSON(), text: t && t.textContent };
});

export async function review24Tests(browser, base, shot) {
  await test(browser, "at the last step on a phone and in a narrow embed, the picture's verdict shows whole from its start", async (page) => {
    for (const [size, url] of [
      [[375, 667], "index.html#scenario=naive-gc-pause&step=end"],
      [[640, 360], "embed.html#scenario=redlock-gc-pause&step=end"],
    ]) {
      await page.setViewportSize({ width: size[0], height: size[1] });
      await page.goto(`${base}${url}`);
      await page.reload();
      await ready(page);
      await page.waitForTimeout(800);
      const v = await verdictInView(page);
      assert(v.verdict, `${url}: no verdict line in the picture`);
      assert(v.text.includes("double-write"), `${url}: the verdict reads ${JSON.stringify(v.text)}`);
      assert(v.verdict.left >= v.window.left - 0.5 && v.verdict.bottom <= v.window.bottom + 0.5,
        `${url} at ${size.join("x")}: the verdict is cut (${JSON.stringify(v.verdict)} in the window ${JSON.stringify(v.window)})`);
      await shot(page, `verdict-at-end-${size.join("x")}`);
    }
  });

  await test(browser, "a late answer drawn on an earlier row above the window moves the window up only far enough to show it", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto(`${base}index.html#scenario=redlock-split-votes&step=109&present=1`);
    await ready(page);
    await page.waitForTimeout(800);
    const at = () => page.evaluate(() => {
      const s = document.querySelector(".timeline-scroller");
      const w = s.getBoundingClientRect();
      const f = document.querySelector(".current-frame").getBoundingClientRect();
      return { top: s.scrollTop, row: [f.top - w.top, f.bottom - w.top], height: w.height };
    });
    const before = await at();
    await page.keyboard.press("ArrowRight");
    await page.waitForTimeout(500);
    const after = await at();
    // #110 is C's DELEX arriving at redis-3, drawn on row #100, nine rows above #109's.
    assert(after.top < before.top, `the window did not move up to #110: ${JSON.stringify([before, after])}`);
    assert(after.row[0] >= 0 && after.row[1] <= after.height, `#110's row is not in the window: ${JSON.stringify(after)}`);
    // Three quarters down the window, it moved 296 px up, and as far down again at #111.
    assert(before.top - after.top < 200, `the window moved ${before.top - after.top} px up for #110's row`);
    await shot(page, "late-answer-redlock-split-votes-110-presenter-1280x720");
  });

  await test(browser, "a partition what-if cuts a node off and the run branches", async (page) => {
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=5`);
    await ready(page);
    await page.selectOption("[data-testid=fault-kind]", "partition");
    await page.selectOption("[data-testid=fault-target]", "redis");
    await page.click("text=Inject now");
    await page.waitForSelector("[data-testid=branch]", { timeout: 5000 });
    const branch = await page.locator("[data-testid=branch]").textContent();
    assert(branch.includes("cut redis off"), `the branch list reads ${JSON.stringify(branch)}`);
    assert(!(await page.locator(".notice.error").count()), "an error notice after a partition what-if");
    assert(page.url().includes("whatif="), "the link carries the partition");
  });

  await test(browser, "a what-if at a step in the middle of a node's reaction says where it lands, and lands there", async (page) => {
    // Step 5 of naive-happy-path: A holds the lock; the same reaction sends its status read at 6.
    await page.goto(`${base}index.html#scenario=naive-happy-path&step=5`);
    await ready(page);
    const hint = await page.locator("[data-testid=whatif-lands]").textContent();
    assert(hint.includes("lands after step 6"), `the menu says ${JSON.stringify(hint)}`);
    await page.selectOption("[data-testid=fault-kind]", "pause");
    await page.selectOption("[data-testid=fault-target]", "A");
    await page.click("text=Inject now");
    await page.waitForSelector("[data-testid=branch]");
    const branch = await page.locator("[data-testid=branch]").textContent();
    assert(branch.includes("after step 6: pause A"), `the branch list reads ${JSON.stringify(branch)}`);
    // Where no reaction goes on, the menu says nothing of it.
    await page.goto(`${base}index.html#scenario=naive-happy-path&step=6`);
    await page.reload();
    await ready(page);
    assert(!(await page.locator("[data-testid=whatif-lands]").count()), "a landing note at step 6, the reaction's last");
  });

  await test(browser, "an uploaded file whose fault never fires says so", async (page) => {
    await page.goto(`${base}index.html`);
    await page.waitForSelector(".picker");
    const file = `name = "mine"\ntitle = "Mine"\nsummary = "A pause that waits for a label no event has."\nexpect = "safe"\n\n[lock]\nkind = "redis"\nttl_ms = 5000\n\n[resource]\nfencing = "enforce"\n\n[[workers]]\nname = "A"\nfencing = true\n\n[[faults]]\nafter = "leese check"\nkind = "pause"\ntarget = "A"\nduration_ms = 10000\n`;
    await page.setInputFiles("[data-testid=upload]", { name: "mine.toml", mimeType: "text/plain", buffer: Buffer.from(file) });
    await ready(page);
    const notice = await page.locator(".notice").textContent();
    assert(notice.includes("never happened") && /mine\.toml:18:\d+: faults\[0\]\.after:/.test(notice) && notice.includes("leese check"),
      `the notice reads ${JSON.stringify(notice)}`);
  });

  await test(browser, "the scenario filter matches every word anywhere, and Enter opens the first match", async (page) => {
    await page.goto(`${base}index.html`);
    await page.waitForSelector(".picker");
    await page.fill(".picker input[type=search]", "redlock clock");
    const ids = await page.locator(".scenario").evaluateAll((els) => els.map((e) => e.dataset.id));
    assert(ids.includes("redlock-clock-jump"), `"redlock clock" shows ${JSON.stringify(ids)}`);
    await page.fill(".picker input[type=search]", "pause gc");
    const gc = await page.locator(".scenario").evaluateAll((els) => els.map((e) => e.dataset.id));
    assert(gc.length >= 2 && gc.includes("naive-gc-pause"), `"pause gc" shows ${JSON.stringify(gc)}`);
    await page.press(".picker input[type=search]", "Enter");
    await ready(page);
    assert(page.url().includes(`scenario=${gc[0]}`) || (await page.locator("#ls-title").textContent()).length > 0, "Enter opened nothing");
    await page.waitForFunction((id) => location.hash.includes(`scenario=${id}`), gc[0], { timeout: 5000 });
  });

  await test(browser, "the step box shows the run's step again after a value it refuses", async (page) => {
    await page.goto(`${base}index.html#scenario=naive-gc-pause&step=20`);
    await ready(page);
    const box = page.locator("input[aria-label='Current step']");
    await box.fill("-3");
    await box.press("Enter");
    await page.waitForTimeout(200);
    assert((await box.inputValue()) === "20", `the box reads ${await box.inputValue()}`);
    assert(page.url().includes("step=20"), page.url());
  });

  await test(browser, "a picture shorter than its window still starts at the lanes' headers, not in its title block", async (page) => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    for (const step of [9, 22]) {
      await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=${step}`);
      await page.reload();
      await ready(page);
      await page.waitForTimeout(600);
      const cut = await page.evaluate(() => {
        const w = document.querySelector(".timeline-scroller").getBoundingClientRect();
        return [...document.querySelectorAll("#ls-before text")]
          .map((t) => [t.textContent.trim().slice(0, 40), t.getBoundingClientRect().bottom - w.top])
          .filter(([, bottom]) => bottom > 1);
      });
      // It stopped short: "last_token 34." showed cut through at the window's top.
      assert(cut.length === 0, `step ${step}: the title block shows in the window: ${JSON.stringify(cut)}`);
    }
    await shot(page, "short-picture-starts-at-headers-fenced-gc-pause-22");
  });
}

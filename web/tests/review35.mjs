// Browser tests of session 35's work: presenting a run whose note spans two lines, stepping
// leaves no word cut under the lane names; a pasted scenario's link names the file as before;
// the warnings of one's own scenario stay shown after a what-if change. From a keyboard, screen
// reader, phone and docs-author review: ↑ ↓ in the step box, the lease chart's pinned names and
// a short embed's lease chart, what the search and the filter say, names and roles, the
// phone's speed button and share panel, and the page's title.
import { assert, present, frames, ready, test } from "./harness.mjs";

/** Words drawn in the timeline's window that the band of lane names cuts through by more than
 * `slack` px either side (a note's two lines of words reach a pixel or two past its box). */
const BAND_CUT = (slack = 3) => {
  const sc = document.querySelector(".timeline-scroller");
  const s = sc.getBoundingClientRect();
  const heads = document.querySelector(".lane-heads");
  const band = heads && !heads.hidden ? heads.getBoundingClientRect().bottom : s.top;
  const cut = [];
  for (const t of sc.querySelectorAll(".page svg text")) {
    if (t.closest("[data-cut]") || getComputedStyle(t).visibility === "hidden") continue;
    const r = t.getBoundingClientRect();
    if (r.width === 0 || r.right < s.left || r.left > s.right) continue;
    if (r.top < band - slack && r.bottom > band + slack) cut.push(t.textContent.trim());
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

  await test(browser, "↑ and ↓ in the step number box step forward and back, and the box keeps the focus", async (page) => {
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=7`);
    await ready(page);
    await page.focus(".controls input[type=number]");
    await page.keyboard.press("ArrowUp");
    await page.waitForFunction(() => location.hash.includes("step=8"));
    await page.keyboard.press("ArrowUp");
    await page.waitForFunction(() => location.hash.includes("step=9"));
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction(() => location.hash.includes("step=8"));
    const box = await page.evaluate(() => [document.activeElement?.getAttribute("aria-label"), document.activeElement?.value]);
    assert(box[0] === "Current step" && box[1] === "8", `after ↑ ↑ ↓ the focus is on ${JSON.stringify(box)}`);
  });

  await test(browser, "a phone's lease chart early in a run shows no word of the step's label cut by the pinned names", async (page) => {
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=3&chart=lease`);
    await ready(page);
    await page.waitForTimeout(500);
    const cut = await page.evaluate(() => {
      const pin = document.querySelector(".lease-pin > svg");
      if (!pin) return ["no pinned names"];
      const edge = pin.getBoundingClientRect().right;
      return [...pin.querySelectorAll("text")]
        .filter((t) => getComputedStyle(t).visibility !== "hidden")
        .filter((t) => { const r = t.getBoundingClientRect(); return r.width > 0 && r.left < edge - 1 && r.right > edge + 1; })
        .map((t) => t.textContent.trim());
    });
    assert(cut.length === 0, `the pinned names column shows ${JSON.stringify(cut)} cut at its edge`);
    await shot(page, "review35-phone-lease-step3");
  }, { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });

  for (const [width, height, controls] of [[400, 300, "full"], [375, 667, "full"], [800, 450, "minimal"]]) {
    await test(browser, `a ${width}x${height} embed's lease chart with the ${controls} controls shows its rows and its time axis whole, and no word cut at its foot`, async (page) => {
      await page.goto(`${base}embed.html#scenario=fenced-gc-pause&step=${controls === "full" ? 20 : 41}&controls=${controls}&chart=lease`);
      await ready(page);
      await page.waitForTimeout(500);
      const seen = await page.evaluate(() => {
        const s = document.querySelector(".timeline-scroller.lease");
        const r = s.getBoundingClientRect();
        const [top, bottom] = [r.top + s.clientTop, r.top + s.clientTop + s.clientHeight];
        const inside = (t) => { const b = t.getBoundingClientRect(); return b.width > 0 && b.top >= top - 1 && b.bottom <= bottom + 1; };
        const cut = (t) => { const b = t.getBoundingClientRect(); return b.width > 0 && b.top < bottom - 2 && b.bottom > bottom + 2 && getComputedStyle(t).visibility !== "hidden"; };
        const svg = s.querySelector(".page > svg");
        const names = [...svg.querySelectorAll("text[text-anchor=end]")];
        // The axis's ticks, on the chart or its copy kept at the window's foot.
        const ticks = [...s.querySelectorAll("text")].filter((t) => /^\d+ s$/.test(t.textContent.trim()) && getComputedStyle(t).visibility !== "hidden");
        const axisCopy = s.querySelector(".lease-axis");
        return {
          rows: names.filter(inside).map((t) => t.textContent.trim()),
          cut: [...s.querySelectorAll(".page > svg text, .lease-bands svg text")].filter(cut).map((t) => t.textContent.trim()),
          ticks: ticks.filter(inside).length,
          axisCopy: axisCopy && getComputedStyle(axisCopy).display !== "none",
        };
      });
      assert(seen.rows.length >= 2, `the window shows the rows ${JSON.stringify(seen.rows)}`);
      assert(seen.cut.length === 0, `the window's foot cuts ${JSON.stringify(seen.cut)}`);
      assert(seen.ticks >= 1, `no tick of the time axis shows (${JSON.stringify(seen)})`);
      // At steps 20 and 21 B acts (it reads the status, then writes): a window too short for
      // every row shows B's (the 400x300 frame showed A's while B wrote, a review).
      assert(seen.rows.includes("B believes it holds it") || controls !== "full",
        `at step 20 the window shows ${JSON.stringify(seen.rows)}, not B's rows`);
      await shot(page, `review35-embed-lease-${controls}-${width}x${height}`);
    }, { viewport: { width, height } });
  }

  await test(browser, "the search says what it found in a live region, and the filter says how many scenarios match", async (page) => {
    await page.goto(`${base}index.html#scenario=naive-happy-path`);
    await ready(page);
    assert((await page.locator("[data-testid=search-said]").getAttribute("role")) === "status", "the search's words are not a status");
    await page.click("[data-testid=search-start]");
    await page.waitForSelector("[data-testid=counterexample]", { timeout: 60000 });
    const said = await page.locator("[data-testid=search-said]").textContent();
    assert(/^Counterexample found: .+ — then a payout is applied twice\.$/.test(said), `the status says ${JSON.stringify(said)}`);
    await page.keyboard.press("s");
    await page.waitForSelector(".picker");
    for (const [words, expected] of [["zookeeper", null], ["zookeeperx", "No scenario matches that filter."]]) {
      await page.fill(".picker input[type=search]", words);
      const cards = await page.locator(".scenario").count();
      const status = await page.locator("[data-testid=picker-said]").textContent();
      const wanted = expected ?? (cards === 1 ? "1 scenario matches; Enter opens it." : `${cards} scenarios match; Enter opens the first.`);
      assert(status === wanted, `"${words}" (${cards} cards) says ${JSON.stringify(status)}`);
    }
  });

  await test(browser, "cards are named by their titles, the timeline is a region, every panel has a heading, and the tab names the run", async (page) => {
    await page.goto(`${base}index.html`);
    await page.waitForSelector(".picker");
    const site = await page.title();
    const first = page.locator(".scenario").first();
    const [title, expect] = [await first.locator(".title").textContent(), await first.locator(".expect").textContent()];
    assert(await page.getByRole("button", { name: `${title} ${expect}`, exact: true }).count() === 1, `no button is named "${title} ${expect}"`);
    await first.click();
    await ready(page);
    assert(await page.title() === `${title} — lockstep`, `the page's title is ${JSON.stringify(await page.title())}`);
    assert(await page.getByRole("region", { name: /^The timeline/ }).count() === 1, "the timeline is not a named region");
    assert(await page.getByRole("heading", { name: "Your own scenario" }).count() === 1, "Your own scenario is not a heading");
    await page.keyboard.press("s");
    await page.waitForSelector(".picker");
    assert(await page.title() === site, `the list's title is ${JSON.stringify(await page.title())}`);
  });

  await test(browser, "a phone has a speed button on the controls' first line and a share panel its list fits", async (page) => {
    await page.goto(`${base}index.html#scenario=redlock-split-votes&step=400`);
    await ready(page);
    const speed = page.locator(".controls .speed-cycle");
    assert(await speed.isVisible(), "no speed button on a phone");
    assert((await speed.textContent()) === "1×", await speed.textContent());
    const [first, button] = await page.evaluate(() => [document.querySelector(".controls button").getBoundingClientRect().top, document.querySelector(".controls .speed-cycle").getBoundingClientRect().top]);
    assert(Math.abs(first - button) < 2, `the speed button is on another line (${button} vs ${first})`);
    const lines = await page.evaluate(() => new Set([...document.querySelectorAll(".controls > *")].filter((e) => e.offsetParent).map((e) => Math.round(e.getBoundingClientRect().top / 10))).size);
    assert(lines <= 3, `the controls take ${lines} lines`);
    await speed.tap();
    assert((await speed.textContent()) === "2×", `after a tap the button reads ${await speed.textContent()}`);
    await page.click("details.share summary");
    const [right, inner] = await page.evaluate(() => {
      const p = document.querySelector("details.share");
      return [document.querySelector("[data-testid=embed-controls]").getBoundingClientRect().right, p.getBoundingClientRect().right - parseFloat(getComputedStyle(p).paddingRight)];
    });
    assert(right <= inner + 0.5, `the embed controls list reaches ${right}, past the panel's ${inner}`);
    await shot(page, "review35-phone-controls");
  }, { viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });

  await test(browser, "a phone's timeline stops past its lane header boxes with the first row's words whole under the band", async (page) => {
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=1`);
    await ready(page);
    for (let i = 0; i < 5; i++) {
      await page.tap(".controls button[aria-label^='Step forward']");
      await page.waitForTimeout(500);
    }
    await frames(page);
    const gap = await page.evaluate(() => {
      const sc = document.querySelector(".timeline-scroller");
      const band = sc.firstElementChild.getBoundingClientRect().bottom;
      const first = [...sc.querySelectorAll(".page svg text")].find((t) => t.textContent.includes("FCALL acquire"));
      return first.getBoundingClientRect().top - band;
    });
    assert(gap >= 1, `"FCALL acquire …" starts ${gap.toFixed(1)} px below the lane names' band`);
  }, { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

  // Stepping back from the last step, the room made under the picture went and the browser
  // stopped the window at the new end, through the step label at its top.
  await test(browser, "presenting redlock-gc-pause at 1280x720, stepping back from the end cuts no label under the lane names", async (page) => {
    await present(page, base, "redlock-gc-pause", { width: 1280, height: 720, step: 111 });
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press("ArrowLeft");
      await page.waitForTimeout(700);
      await frames(page);
      const cut = await page.evaluate(BAND_CUT, 2);
      assert(cut.length === 0, `step ${110 - i} cuts ${JSON.stringify(cut)} under the lane names`);
    }
  }, { viewport: { width: 1280, height: 720 } });
}

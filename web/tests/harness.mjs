// A small harness for the browser tests: serves web/dist on 127.0.0.1, launches the system
// Chromium through playwright-core, gives each test a fresh page that fails on any console error,
// page error or request leaving 127.0.0.1, and reports.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// DIST=dir serves another build (to compare before and after a change).
export const distDir = process.env.DIST ? path.resolve(process.env.DIST) : path.join(webDir, "dist");
export const outDir = path.join(webDir, "test-results");

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".wasm": "application/wasm",
  ".css": "text/css",
  ".svg": "image/svg+xml",
};

/** Serves distDir on 127.0.0.1 at a free port. */
export function serve() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    const name = url.pathname === "/" ? "index.html" : decodeURIComponent(url.pathname.slice(1));
    const file = path.join(distDir, name);
    if (!file.startsWith(distDir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404, { "Content-Type": "text/plain" });
      res.end("not found");
      return;
    }
    res.writeHead(200, { "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve({ server, base: `http://127.0.0.1:${server.address().port}/` }));
  });
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run",
    ],
  });
}

/**
 * A page that records console errors, page errors and every request that is not to 127.0.0.1
 * (those are aborted). `page.problems()` lists them.
 */
export async function guardedPage(browser, options = {}) {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1920, height: 1080 },
    // A phone: { isMobile: true, hasTouch: true, deviceScaleFactor: 2 }.
    isMobile: options.isMobile ?? false,
    hasTouch: options.hasTouch ?? false,
    deviceScaleFactor: options.deviceScaleFactor ?? 1,
    acceptDownloads: true,
    reducedMotion: options.reducedMotion ?? "no-preference",
    permissions: ["clipboard-read", "clipboard-write"],
  });
  const problems = [];
  const page = await context.newPage();
  page.on("console", (m) => { if (m.type() === "error") problems.push(`console error: ${m.text()}`); });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === "blob:" || url.protocol === "data:" || url.hostname === "127.0.0.1") {
      return route.continue();
    }
    problems.push(`request left 127.0.0.1: ${url.href}`);
    return route.abort();
  });
  page.problems = () => problems;
  page.closeAll = () => context.close();
  return page;
}

const results = [];

/** Runs one test with a fresh guarded page; a test fails on a thrown error or a page problem. */
export async function test(browser, name, fn, options) {
  // ONLY="a|b" runs only the tests whose names contain a or b (while working on them).
  if (process.env.ONLY && !process.env.ONLY.split("|").some((part) => name.includes(part))) return;
  const page = await guardedPage(browser, options);
  const t0 = performance.now();
  try {
    await fn(page);
    const problems = page.problems();
    if (problems.length) throw new Error(problems.join("\n"));
    results.push({ name, ok: true });
    console.log(`ok    ${name} (${Math.round(performance.now() - t0)} ms)`);
  } catch (e) {
    results.push({ name, ok: false });
    console.log(`FAIL  ${name}\n      ${String(e.stack || e).split("\n").join("\n      ")}`);
    await page.screenshot({ path: path.join(outDir, `failed-${name.replace(/\W+/g, "-")}.png`) }).catch(() => {});
  } finally {
    await page.closeAll();
  }
}

export function summary() {
  const failed = results.filter((r) => !r.ok);
  console.log(`\n${results.length - failed.length} passed, ${failed.length} failed`);
  return failed.length === 0;
}

export function assert(cond, message) {
  if (!cond) throw new Error(message);
}

/** Waits until the app has drawn a run (the step counter is there). */
export async function ready(page) {
  await page.waitForSelector("[data-testid=step-of], .embed .page svg", { timeout: 15000 });
}

export async function text(page, selector) {
  return (await page.locator(selector).first().textContent())?.trim() ?? "";
}

/** The least size presenter mode's readable zoom draws the picture's 16 px labels at on a screen
 * `height` px tall: 16 px at 1080 and taller, as much smaller as a shorter screen is (a projector
 * shows it as large), less a rounding margin. */
export const readablePx = (height) => 16 * Math.min(1, height / 1080) - 0.1;

/** Two animation frames later (after the app's scroll-into-view, which runs in a frame callback). */
export const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** Opens `id` in presenter mode (F) in a window `width`x`height`; given a `step`, steps there by
 * key presses and waits for the app to follow it. `tag` keeps the page's URL apart from other
 * tests'. */
export async function present(page, base, id, { width, height, step, tag = "p" }) {
  await page.setViewportSize({ width, height });
  await page.goto(`${base}index.html?${tag}${width}#scenario=${id}`);
  await ready(page);
  await page.keyboard.press("f");
  await page.waitForSelector(".presenter");
  await page.waitForTimeout(400);
  if (step === undefined) return;
  for (let i = 0; i < step; i++) await page.keyboard.press("ArrowRight");
  await page.waitForFunction((n) => document.querySelector("input[aria-label='Current step']")?.value === String(n), step);
  await page.waitForTimeout(700);
  await frames(page);
}

/** Presenter mode's fit zoom (Z toggles it; presenter mode starts at readable labels, and each
 * scenario opened starts there again). A run that fits the screen at readable labels
 * (`data-snug`) is drawn alike at either zoom, and Z there only says so: it is fitted already. */
export async function fitZoom(page) {
  await page.waitForSelector(".timeline-scroller.zoom-fit, .timeline-scroller.zoom-readable");
  await frames(page);
  if (await page.locator(".app.presenter .timeline-scroller[data-snug]").count()) return;
  if (await page.locator(".timeline-scroller.zoom-readable").count()) await page.keyboard.press("z");
  await page.waitForSelector(".timeline-scroller.zoom-fit");
}

/** Opens `url` (an embed) and zooms it in with its button, then waits `settle` ms for the view to
 * follow the step. */
export async function openZoomed(page, url, settle) {
  await page.goto(url);
  await ready(page);
  await frames(page);
  // A phone-sized embed opens zoomed in already.
  if (!(await page.locator(".timeline-scroller.zoom-readable").count())) await page.click("[data-testid=zoom]");
  await page.waitForSelector(".timeline-scroller.zoom-readable");
  await frames(page);
  await page.waitForTimeout(settle);
}

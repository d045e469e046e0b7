// Step time on the largest runs, key press to the start of the frame that shows the step, 30 steps forward each, printed as
// a median (`node tests/steptime.mjs`; DIST=dir measures another build, to compare before and after).
import { serve, launch, guardedPage } from "./harness.mjs";
import { stepTimes } from "./review9.mjs";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const { server, base } = await serve();
const browser = await launch();
const page = await guardedPage(browser);
for (const [id, step] of [["redlock-delayed-restart", 700], ["redlock-split-votes", 200]]) {
  const times = await stepTimes(page, base, id, step, 30);
  console.log(`${id}: key to the frame's start median ${median(times).toFixed(1)} ms (min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)})`);
}
await page.closeAll();
await browser.close();
server.close();

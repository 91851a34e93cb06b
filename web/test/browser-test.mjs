// The browser test: serves dist/ on 127.0.0.1, opens it in headless Chromium and checks that
// navlab starts and draws its default scene, that clicks and keys work in each scene, that a
// share link restores a step, that a broken link or a dropped garbage file shows an error and
// leaves the scene as it was, that a good mesh dropped opens with no error, and that every
// button and menu item of each scene can be pressed with no console error or panic. The app tells the page what it shows in the canvas's
// `data-navlab-status` attribute (JSON).
//
//   node browser-test.mjs [--screenshot FILE] [--report FILE]
//
// CHROMIUM names the browser (default /usr/bin/chromium). Exit status 1 on any failure.

import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, "../../dist");
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};

const failures = [];
function check(ok, what) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
}

// --- dist/ on 127.0.0.1 ---------------------------------------------------------------------
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
};
if (!fs.existsSync(path.join(dist, "index.html"))) {
  console.error(`no ${dist}/index.html: build the site first (web/build)`);
  process.exit(1);
}
const server = http.createServer((request, response) => {
  const name = decodeURIComponent(new URL(request.url, "http://x").pathname);
  const file = path.join(dist, name === "/" ? "index.html" : name);
  if (!file.startsWith(dist) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, {
    "content-type": types[path.extname(file)] ?? "application/octet-stream",
  });
  fs.createReadStream(file).pipe(response);
});
await new Promise((done) => server.listen(0, "127.0.0.1", done));
const base = `http://127.0.0.1:${server.address().port}/`;

// --- the browser ----------------------------------------------------------------------------
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });

const problems = [];
async function open(address, within = context) {
  const page = await within.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  // THROTTLE=4 runs the page four times slower, as on a slow or busy machine.
  if (process.env.THROTTLE) {
    const cdp = await within.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: Number(process.env.THROTTLE) });
  }
  await page.goto(address);
  return page;
}

async function status(page) {
  const text = await page.getAttribute("#navlab_canvas", "data-navlab-status");
  return text ? JSON.parse(text) : null;
}

/// Waits (up to `ms`) until `ok(status)`; the last status, or a failure naming `what`.
async function waitFor(page, what, ok, ms = 15000) {
  const until = Date.now() + ms;
  let last = null;
  while (Date.now() < until) {
    last = await status(page);
    if (last && ok(last)) {
      check(true, what);
      return last;
    }
    await page.waitForTimeout(50);
  }
  check(false, `${what} (last status: ${JSON.stringify(last)?.slice(0, 400)})`);
  return last;
}

/// Presses `key` and waits for the frame that takes it (keys pressed within one frame are
/// taken together, in an order of the app's).
async function press(page, key) {
  const before = (await status(page)).frames;
  await page.keyboard.press(key);
  const until = Date.now() + 5000;
  while (Date.now() < until && (await status(page)).frames <= before) await page.waitForTimeout(20);
}

const centre = (r, fx = 0.5, fy = 0.5) => [r[0] + (r[2] - r[0]) * fx, r[1] + (r[3] - r[1]) * fy];
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/// Distinct colours in a screenshot of the page (every 7th pixel), counted in the page.
async function colours(page) {
  const png = (await page.screenshot()).toString("base64");
  return page.evaluate(async (data) => {
    const picture = new Image();
    picture.src = `data:image/png;base64,${data}`;
    await picture.decode();
    const canvas = new OffscreenCanvas(picture.width, picture.height);
    const g = canvas.getContext("2d");
    g.drawImage(picture, 0, 0);
    const d = g.getImageData(0, 0, picture.width, picture.height).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 28) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size;
  }, png);
}

/// The frame times the app reports over `ms` of playing.
async function frameTimes(page, ms) {
  const times = [];
  const until = Date.now() + ms;
  let frames = -1;
  while (Date.now() < until) {
    const s = await status(page);
    if (s.frames !== frames && s.frame_ms !== null) times.push(s.frame_ms);
    frames = s.frames;
    await page.waitForTimeout(20);
  }
  times.sort((a, b) => a - b);
  return times;
}

// --- Every button and menu item ---------------------------------------------------------
// On a page opened with `?widgets` the app lists its clickable widgets in the status (id, role,
// label: AccessKit's tree) and clicks the one whose id the test writes on the canvas's
// `data-navlab-click` attribute, as egui_kittest clicks.

const key = (w) => `${w.role}|${w.label}`;

async function widgets(page) {
  const s = await status(page);
  return (s?.widgets ?? []).map(([id, role, label, bounds]) => ({ id, role, label, bounds }));
}

/// Lets a few frames pass (a page opened with `?widgets` draws frames all the time, so that
/// the test gives no input but its clicks).
async function settle(page, frames = 2) {
  const start = (await status(page)).frames;
  const until = Date.now() + 15000;
  while ((await status(page)).frames < start + frames) {
    if (Date.now() > until) throw new Error(`the page stopped drawing frames (a panic?): ${problems.join("; ")}`);
    await page.waitForTimeout(10);
  }
}

/// Clicks a widget by its id, and returns when the frame after the click is drawn.
async function clickWidget(page, widget) {
  await page.evaluate((id) => document.getElementById("navlab_canvas").setAttribute("data-navlab-click", id), widget.id);
  await settle(page, 2);
}

/// Opens and lets close each menu of the menu bar once: in a browser, a menu bar's menu opened
/// the first time by an AccessKit click closes again a few frames later (later ones stay).
async function warmMenus(page) {
  for (const label of ["File", "View"]) {
    const before = new Set((await widgets(page)).map(key));
    const menu = (await widgets(page)).find((w) => w.role === "Button" && w.label === label);
    if (!menu) continue;
    await clickWidget(page, menu);
    await settle(page, 8);
    for (let i = 0; i < 10 && (await widgets(page)).some((w) => !before.has(key(w))); i++) {
      await page.keyboard.press("Escape");
      await settle(page, 2);
    }
  }
}

async function showScene(page, scene) {
  const names = { Navmesh: "Navmesh", TileMap: "Tile map", Pursuit: "Pursuit", Level: "Level" };
  for (let attempt = 0; attempt < 4 && (await status(page)).scene !== scene; attempt++) {
    await page.keyboard.press("Escape");
    await settle(page, 2);
    const tab = (await widgets(page)).find((w) => w.role === "Button" && w.label === names[scene]);
    if (tab) await clickWidget(page, tab);
    await settle(page, 2);
  }
}

/// The widget `target` clicked: found where it is, or reached again by clicking `path` (the
/// widgets that opened it) from the scene, skipping a step whose next one is already there
/// (a folding header is not folded again). Returns the widgets shown just before the click
/// (what the click opens is what comes after that is not among them), or null when the
/// target was not reached.
async function reachAndClick(page, scene, path, target) {
  for (let attempt = 0; attempt < 5; attempt++) {
    // A popup's widgets come a frame or two after it opens.
    for (let frame = 0; frame < (attempt ? 6 : 1); frame++) {
      const shown = await widgets(page);
      const found = shown.find((w) => key(w) === target);
      if (found) {
        await clickWidget(page, found);
        return new Set(shown.map(key));
      }
      await settle(page, 1);
    }
    await page.keyboard.press("Escape");
    await showScene(page, scene);
    const steps = [...path, target];
    for (let i = 0; i < path.length; i++) {
      const now = await widgets(page);
      if (now.some((w) => key(w) === steps[i + 1])) continue;
      const step = now.find((w) => key(w) === path[i]);
      if (!step) break;
      await clickWidget(page, step);
      // Until what it opens is there (a popup's widgets come a few frames later).
      for (let frame = 0; frame < 8; frame++) {
        if ((await widgets(page)).some((w) => key(w) === steps[i + 1])) break;
        await settle(page, 1);
      }
    }
  }
  return null;
}

/// Not pressed here: the scene switches (the test chooses the scene), the canvas (clicks on it
/// are tested above), and the rows of lists that change with every step (the step list, the
/// open list, the worst pairs: each is a button of its own; clicking rows is tested natively).
const notPressed = (w) =>
  ["Navmesh", "Tile map", "Pursuit", "Level"].includes(w.label) ||
  w.role === "Canvas" ||
  w.label === "" ||
  w.label.startsWith("Open list:") ||
  /^[0-9+−-]/.test(w.label);

/// How deep the presses go: a menu, its submenu, an item, what the item opens.
const MAX_DEPTH = 4;

/// How often a widget is looked for in vain before it is given up (a menu opened by AccessKit
/// may close again before its item is clicked).
const MAX_MISSES = 3;

/// Presses every widget of `scene` reachable within four clicks, each at least once (by role
/// and label), and what each opened (at the shallowest depth it was met); a console error is
/// laid at the press before it. A press that shows another scene (Build navmesh) is not
/// followed there.
async function pressEverything(page, scene, blame) {
  const pressed = new Set();
  const explored = new Set();
  const misses = new Map();
  /// How often each widget's presses were followed.
  const visits = new Map();
  async function explore(path, list, depth) {
    for (const w of list) {
      const k = key(w);
      const done = explored.has(k) || (pressed.has(k) && depth === MAX_DEPTH);
      if (done || (misses.get(k) ?? 0) >= MAX_MISSES || notPressed(w)) continue;
      await showScene(page, scene);
      const errors = problems.length;
      let before;
      try {
        before = await reachAndClick(page, scene, path, k);
      } catch (error) {
        blame.push(`${scene}: ${[...path, k].join(" > ")}: ${problems.slice(errors).join("; ") || error.message}`);
        throw error;
      }
      if (!before) {
        misses.set(k, (misses.get(k) ?? 0) + 1);
        if (process.env.DEBUG_MISS) console.log("MISS", scene, [...path, k].join(" > "));
        continue;
      }
      pressed.add(k);
      if (problems.length > errors) blame.push(`${scene}: ${[...path, k].join(" > ")}: ${problems.slice(errors).join("; ")}`);
      if (depth < MAX_DEPTH) {
        visits.set(k, (visits.get(k) ?? 0) + 1);
        // What the press opened: new widgets seen over the next frames, until three frames
        // bring none (a window's widgets come a frame or more after it opens; a menu opened
        // the first time closes again a few frames later and reachAndClick opens it again).
        const fresh = new Map();
        for (let i = 0, quiet = 0; i < 16 && quiet < 3; i++) {
          if ((await status(page)).scene !== scene) break;
          const count = fresh.size;
          for (const x of await widgets(page)) {
            if (!before.has(key(x)) && !explored.has(key(x))) fresh.set(key(x), x);
          }
          quiet = fresh.size === count ? quiet + 1 : 0;
          await settle(page, 1);
        }
        if (process.env.DEBUG_MISS) console.log("OPENED", scene, [...path, k].join(" > "), "→", [...fresh.keys()].join(", "));
        if ((await status(page)).scene === scene && fresh.size) {
          await explore([...path, k], [...fresh.values()], depth + 1);
        }
        // Explored when all it opened was pressed (or cannot be reached); else the next
        // pass comes back to it.
        const hopeless = (x) =>
          explored.has(key(x)) ||
          notPressed(x) ||
          (misses.get(key(x)) ?? 0) >= MAX_MISSES ||
          (depth + 1 === MAX_DEPTH && pressed.has(key(x)));
        if ([...fresh.values()].every(hopeless) || visits.get(k) >= 2) explored.add(k);
      }
      await page.keyboard.press("Escape");
      await settle(page);
    }
  }
  await showScene(page, scene);
  await warmMenus(page);
  // Twice: what a first pass could not reach (its way changed under it) is tried again.
  for (let pass = 0; pass < 2; pass++) await explore([], await widgets(page), 1);
  return pressed;
}

const report = {};
/// Presses that made a console error or a panic, each with the widgets clicked to get there.
const blame = [];
try {
  // The default scene: the built-in mesh, start and goal placed, drawn.
  const page = await open(base);
  let s = await waitFor(page, "the app starts and draws frames", (s) => s.frames >= 3, 30000);
  if (!s) throw new Error("the app did not start");
  report.first_frame_ms = s.first_frame_ms;
  check(s.first_frame_ms <= 3000, `first frame ${s.first_frame_ms?.toFixed(0)} ms after load (≤ 3000)`);
  check(s.scene === "Navmesh" && s.navmesh.mesh.startsWith("rooms.obj"), "the default mesh is shown");
  check(s.steps > 0 && !same(s.navmesh.start, s.navmesh.goal), "start and goal are placed, A* ran");
  const shown = await colours(page);
  check(shown >= 30, `the page shows the scene's colours (${shown} colours)`);

  // Clicks set start (left) and goal (right).
  const canvas = s.canvas;
  await page.mouse.click(...centre(canvas, 0.3, 0.55));
  s = await waitFor(page, "a left click moves the start", (t) => !same(t.navmesh.start, s.navmesh.start));
  const before = s.navmesh.goal;
  await page.mouse.click(...centre(canvas, 0.7, 0.45), { button: "right" });
  s = await waitFor(page, "a right click moves the goal", (t) => !same(t.navmesh.goal, before));

  // Space plays.
  await press(page, "Home");
  await press(page, "Space");
  s = await waitFor(page, "Space plays the navmesh steps", (t) => t.playing && t.step > 3);
  const times = await frameTimes(page, 2000);
  report.frame_ms_median = times[Math.floor(times.length / 2)];
  report.frame_ms_max = times[times.length - 1];
  report.frames_measured = times.length;
  check(report.frame_ms_median <= 16, `navmesh frames: median ${report.frame_ms_median?.toFixed(2)} ms, most ${report.frame_ms_max?.toFixed(2)} ms (≤ 16)`);
  await press(page, "Space");

  // Saving downloads: a picture of the window (F12).
  const download = page.waitForEvent("download", { timeout: 10000 });
  await press(page, "F12");
  const picture = await download;
  const bytes = fs.readFileSync(await picture.path());
  check(
    picture.suggestedFilename().endsWith(".png") && bytes.subarray(1, 4).toString() === "PNG",
    `Save picture downloads a PNG (${picture.suggestedFilename()}, ${bytes.length} bytes)`,
  );

  // A garbage file dropped on the window: an error, the mesh stays.
  await page.evaluate(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(["v 0 0 0\nf 1 2 9\n\u0000\u0001garbage"], "bad.obj"));
    const canvas = document.getElementById("navlab_canvas");
    for (const type of ["dragenter", "dragover", "drop"]) {
      canvas.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
  });
  s = await waitFor(page, "a dropped garbage file shows its error", (t) => (t.error ?? "").includes("bad.obj"));
  check(s.scene === "Navmesh" && s.navmesh.mesh.startsWith("rooms.obj"), "the mesh shown stays");

  // A good mesh dropped opens, with no error (none about an edits file beside it: a dropped
  // file has no folder).
  await page.evaluate(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(["v 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nf 1 4 3 2\n"], "square.obj"));
    const canvas = document.getElementById("navlab_canvas");
    for (const type of ["dragenter", "dragover", "drop"]) {
      canvas.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
  });
  s = await waitFor(page, "a dropped mesh opens", (t) => t.navmesh.mesh === "square.obj");
  check(!s.error, `and shows no error (${s.error})`);

  // The tile map: A* plays; a link to a step opens that step.
  await page.mouse.click(...centre(s.tabs.TileMap));
  s = await waitFor(page, "the tile-map scene opens", (t) => t.scene === "TileMap" && t.steps > 0);
  await page.focus("#navlab_canvas");
  await press(page, "Home");
  s = await waitFor(page, "Home goes to the first step", (t) => t.step === 0);
  await press(page, "Space");
  s = await waitFor(page, "Space plays the tile-map search", (t) => t.step > 10);
  const times2 = await frameTimes(page, 1000);
  report.tile_map_frame_ms_median = times2[Math.floor(times2.length / 2)];
  report.tile_map_frame_ms_max = times2[times2.length - 1];
  check(report.tile_map_frame_ms_median <= 16, `tile-map frames: median ${report.tile_map_frame_ms_median?.toFixed(2)} ms (≤ 16)`);
  await press(page, "Space");
  s = await waitFor(page, "Space pauses", (t) => !t.playing);
  const step = s.step;
  await press(page, "Control+Shift+L");
  s = await waitFor(page, "Copy link copies a link", (t) => (t.notice ?? "").startsWith("Copied a link"));
  const link = await page.evaluate(() => navigator.clipboard.readText());
  check(link.startsWith(`${base}#lesson=`), `the link is to this page (${link.length} characters)`);

  // The pursuit: the simulation plays.
  await page.mouse.click(...centre(s.tabs.Pursuit));
  s = await waitFor(page, "the pursuit scene opens", (t) => t.scene === "Pursuit");
  await page.focus("#navlab_canvas");
  const first = s.step;
  await press(page, "Space");
  await waitFor(page, "Space plays the pursuit", (t) => t.playing && t.step > first + 5);
  const times3 = await frameTimes(page, 1000);
  report.pursuit_frame_ms_median = times3[Math.floor(times3.length / 2)];
  report.pursuit_frame_ms_max = times3[times3.length - 1];
  check(report.pursuit_frame_ms_median <= 16, `pursuit frames: median ${report.pursuit_frame_ms_median?.toFixed(2)} ms (≤ 16)`);
  await press(page, "Space");

  // The level view: the built-in level built in the page, a click asks why.
  await page.mouse.click(...centre(s.tabs.Level));
  s = await waitFor(page, "the level scene opens with its navmesh built", (t) => t.scene === "Level" && (t.level.polygons ?? 0) > 0);
  await page.mouse.click(...centre(s.canvas));
  s = await waitFor(page, "a click on the level asks why", (t) => (t.level.why ?? "").startsWith("At ("));
  check(!s.level.error, `the level builds in the browser (${s.level.polygons} polygons): ${s.level.why}`);
  report.level_build_ms = s.level.build_ms;

  // The link, in a new tab: the same scene and step.
  const linked = await open(link);
  s = await waitFor(linked, "the share link restores the scene and the step", (t) => t.frames >= 2 && t.scene === "TileMap" && t.step === step);

  // A damaged link, in a browser that has not seen navlab: the default scene and a message.
  const fresh = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const damaged = await open(`${base}#lesson=AAAAthis-is-not-a-lesson`, fresh);
  s = await waitFor(damaged, "a damaged link shows its message", (t) => t.frames >= 2 && (t.error ?? "").includes("share link"));
  check(s.scene === "Navmesh" && s.navmesh.mesh.startsWith("rooms.obj"), "a damaged link opens the default scene");

  // Every button and menu item of each scene, pressed at least once, in a page of its own.
  const everything = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  await everything.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  const probe = await open(`${base}?widgets`, everything);
  await waitFor(probe, "the page lists its widgets", (t) => t.frames >= 3 && (t.widgets ?? []).length > 20);
  const required = {
    Navmesh: ["Open…", "Measure corridor paths", "Save lesson…", "Export animation…", "Export…", "Rectangle (R)", "Circle (C)", "Polygon (P)", "Paint (B)", "Doors (D)", "Shortest path too (Polyanya)", "Walk the path"],
    TileMap: ["Compare all", "Partitions", "Build navmesh", "Fill", "BFS", "IDA*", "Fringe"],
    Pursuit: ["Play", "Reset", "Add mob", "Default places"],
    Level: ["Why? (W)", "Cross-section (X)", "Area (M)", "Step forward", "Open in navmesh view"],
  };
  const pressedLists = {};
  report.pressed = {};
  // The way to a required widget the walk may miss (a menu opened by AccessKit can close
  // before its item is clicked): tried again directly.
  const ways = { "Export…": ["Button|File", "Button|Export animation…"] };
  for (const [scene, labels] of Object.entries(required)) {
    const pressed = await pressEverything(probe, scene, blame);
    for (const label of labels) {
      const target = `Button|${label}`;
      const way = ways[label];
      for (let attempt = 0; way && !pressed.has(target) && attempt < 3; attempt++) {
        await probe.keyboard.press("Escape");
        await showScene(probe, scene);
        const errors = problems.length;
        if (await reachAndClick(probe, scene, way, target)) pressed.add(target);
        if (problems.length > errors) blame.push(`${scene}: ${[...way, target].join(" > ")}: ${problems.slice(errors).join("; ")}`);
        await probe.keyboard.press("Escape");
        await settle(probe);
      }
    }
    pressedLists[scene] = [...pressed];
    report.pressed[scene] = pressed.size;
    const names = [...pressed].map((k) => k.slice(k.indexOf("|") + 1));
    const missing = labels.filter((label) => !names.includes(label));
    check(missing.length === 0, `${scene}: ${pressed.size} buttons and menu items pressed${missing.length ? `; never reached: ${missing.join(", ")}` : ""}`);
    const s = await status(probe);
    check(s && s.frames > 0, `${scene}: the page still draws after every press`);
  }
  check(blame.length === 0, `no press made a console error or a panic${blame.length ? `:\n  ${blame.join("\n  ")}` : ""}`);
  if (process.env.LIST_PRESSED) console.log(JSON.stringify(pressedLists, null, 1));

  // The README's picture: the default scene at its last step, in a browser of its own.
  const screenshot = option("--screenshot");
  if (screenshot) {
    const own = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "dark" });
    const shot = await open(base, own);
    await waitFor(shot, "the picture's page starts", (t) => t.frames >= 3);
    await shot.focus("#navlab_canvas");
    await press(shot, "End");
    await waitFor(shot, "End shows the last step", (t) => t.step === t.steps);
    await shot.waitForTimeout(300);
    await shot.screenshot({ path: screenshot });
    console.log(`wrote ${screenshot}`);
  }
} catch (error) {
  check(false, `the test ran to its end: ${error.stack ?? error}${blame.length ? `\n  after: ${blame.join("\n  ")}` : ""}`);
}

check(problems.length === 0, `no errors or panics in the console${problems.length ? `:\n  ${problems.join("\n  ")}` : ""}`);

const wasm = path.join(dist, "navlab_bg.wasm");
if (fs.existsSync(wasm)) {
  const bytes = fs.readFileSync(wasm);
  report.wasm_bytes = bytes.length;
  report.wasm_gzip_bytes = zlib.gzipSync(bytes, { level: 9 }).length;
}
console.log(JSON.stringify(report));
const reportFile = option("--report");
if (reportFile) fs.writeFileSync(reportFile, JSON.stringify(report, null, 2) + "\n");

await browser.close();
server.close();
if (failures.length) {
  console.error(`${failures.length} check(s) failed`);
  process.exit(1);
}
console.log("the browser test passed");

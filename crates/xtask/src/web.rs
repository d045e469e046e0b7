//! `cargo xtask web build` writes the browser app's static site to web/dist/; `cargo xtask web
//! [--port P]` builds it and serves it on 127.0.0.1; `web test` runs the Playwright tests against
//! it. Each installs what is missing: the wasm target, the wasm-bindgen CLI that matches Cargo.lock
//! (into a reusable folder under the target dir) and wasm-opt from npm's binaryen.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{cargo, run, wasm_target};

/// The page's wasm modules as (crate, library name): the app, and the TOML module it loads only
/// when a scenario file is read or written (web/toml). The wasm file and JS glue are named after
/// the library.
const MODULES: &[(&str, &str)] = &[
    ("lockstep-web", "lockstep_web"),
    ("lockstep-web-toml", "lockstep_toml"),
];
const WASM_TARGET: &str = "wasm32-unknown-unknown";
const PROFILE: &str = "wasm-release";
/// The static files copied as they are.
const STATIC: &[&str] = &[
    "index.html",
    "embed.html",
    "main.js",
    "style.css",
    "favicon.svg",
];

/// `cargo xtask web …`.
pub fn main(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("build") => build().map(|_| ()),
        Some("test") => {
            build()?;
            test()
        }
        _ => {
            let port = match args {
                [] => 8080,
                [flag, p] if flag == "--port" => p
                    .parse()
                    .map_err(|_| format!("--port {p}: expected a port number (1-65535)"))?,
                _ => return Err("usage: cargo xtask web [build | test | --port P]".into()),
            };
            let dist = build()?;
            serve(&dist, port)
        }
    }
}

fn root() -> PathBuf {
    // xtask lives in crates/xtask.
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
}

/// The exact wasm-bindgen version Cargo.lock resolved.
fn locked_wasm_bindgen() -> Result<String, String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock"))
        .map_err(|e| format!("cannot read Cargo.lock: {e}"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "name = \"wasm-bindgen\""
            && let Some(v) = lines
                .next()
                .and_then(|l| l.trim().strip_prefix("version = "))
        {
            return Ok(v.trim_matches('"').to_string());
        }
    }
    Err("Cargo.lock has no wasm-bindgen entry; is web/ in the workspace?".into())
}

/// The wasm-bindgen CLI of `version`, installed under the target dir unless it is there already.
fn wasm_bindgen_cli(version: &str) -> Result<PathBuf, String> {
    let tools = target_dir().join("tools");
    let bin = tools.join("bin").join("wasm-bindgen");
    let have = Command::new(&bin)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    if have != format!("wasm-bindgen {version}") {
        // No --locked: one of the CLI's locked dependencies is not in the index (TOOLCHAIN.md).
        cargo(&[
            "install",
            "wasm-bindgen-cli",
            "--version",
            version,
            "--root",
            &tools.display().to_string(),
        ])?;
    }
    Ok(bin)
}

/// npm packages of web/package.json (playwright-core, binaryen), installed when missing.
fn npm_ci(web: &Path) -> Result<(), String> {
    let marker = web.join("node_modules").join(".package-lock.json");
    let lock = web.join("package-lock.json");
    let fresh = match (marker.metadata(), lock.metadata()) {
        (Ok(m), Ok(l)) => m.modified().ok() >= l.modified().ok(),
        _ => false,
    };
    if fresh {
        return Ok(());
    }
    run_in(web, "npm", &["ci", "--no-audit", "--no-fund"])
}

fn run_in(dir: &Path, program: &str, args: &[&str]) -> Result<(), String> {
    eprintln!("$ (cd {}) {program} {}", dir.display(), args.join(" "));
    let status = Command::new(program)
        .args(args)
        .current_dir(dir)
        .status()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{program} {}` failed ({status})", args.join(" ")))
    }
}

/// Builds web/dist and returns its path.
pub fn build() -> Result<PathBuf, String> {
    wasm_target()?;
    let web = root().join("web");
    let dist = web.join("dist");
    let bindgen = wasm_bindgen_cli(&locked_wasm_bindgen()?)?;
    npm_ci(&web)?;
    let mut args = vec!["build"];
    for (krate, _) in MODULES {
        args.extend(["-p", krate]);
    }
    args.extend(["--lib", "--target", WASM_TARGET, "--profile", PROFILE]);
    cargo(&args)?;
    if dist.exists() {
        std::fs::remove_dir_all(&dist)
            .map_err(|e| format!("cannot clear {}: {e}", dist.display()))?;
    }
    let mut report = Vec::new();
    for (_, stem) in MODULES {
        let wasm = target_dir()
            .join(WASM_TARGET)
            .join(PROFILE)
            .join(format!("{stem}.wasm"));
        run(
            &bindgen.display().to_string(),
            &[
                "--target",
                "web",
                "--no-typescript",
                "--out-dir",
                &dist.display().to_string(),
                &wasm.display().to_string(),
            ],
        )?;
        let bg = dist.join(format!("{stem}_bg.wasm"));
        let before = size(&bg)?;
        wasm_opt(&web, &bg)?;
        let after = size(&bg)?;
        report.push((bg, before, after));
    }
    for file in STATIC {
        std::fs::copy(web.join(file), dist.join(file))
            .map_err(|e| format!("cannot copy web/{file} to {}: {e}", dist.display()))?;
    }
    eprintln!("web/dist is ready; its wasm (before wasm-opt -> after, raw and gzip -9):");
    for (bg, before, after) in report {
        let name = bg.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        eprintln!(
            "  {name}: {} -> {} bytes, {} -> {} gzipped",
            before.0, after.0, before.1, after.1
        );
    }
    Ok(dist)
}

/// wasm-opt from npm's binaryen (Debian's is too old for rustc's output), in place: -O1, without
/// debug info, names or producers. rustc has optimised for size already (the wasm-release
/// profile); measured on the app's module, -O1 gives the smallest gzipped file (556,858 bytes)
/// where -Oz, -Os and -O2 make it smaller raw but 46-50 KB larger gzipped (601,795 with
/// `-Oz --converge`, the old setting), and the server sends it gzipped.
fn wasm_opt(web: &Path, wasm: &Path) -> Result<(), String> {
    let wasm_opt = web.join("node_modules").join(".bin").join("wasm-opt");
    let wasm = wasm.display().to_string();
    run(
        &wasm_opt.display().to_string(),
        &[
            "-O1",
            "--strip-debug",
            "--strip-producers",
            "--enable-bulk-memory",
            "--enable-nontrapping-float-to-int",
            "--enable-sign-ext",
            "--enable-mutable-globals",
            "--enable-reference-types",
            "--enable-multivalue",
            &wasm,
            "-o",
            &wasm,
        ],
    )
}

/// A file's size raw and gzipped (`gzip -9`, as a server would send it).
fn size(file: &Path) -> Result<(u64, u64), String> {
    let raw = file
        .metadata()
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?
        .len();
    let gz = Command::new("gzip")
        .args(["-9", "-c"])
        .arg(file)
        .output()
        .map_err(|e| format!("cannot run gzip: {e}"))?;
    Ok((raw, gz.stdout.len() as u64))
}

/// Runs the Playwright tests (web/tests/*.mjs) against web/dist; installs Chromium from Debian
/// when it is missing (CI runs as root).
fn test() -> Result<(), String> {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    if !Path::new(&chromium).exists() {
        run("apt-get", &["update"])?;
        run(
            "apt-get",
            &["install", "-y", "chromium", "fonts-liberation"],
        )?;
    }
    run_in(&root().join("web"), "npm", &["test"])
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css",
        Some("svg") => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

/// Serves `dist` on 127.0.0.1 until interrupted.
fn serve(dist: &Path, port: u16) -> Result<(), String> {
    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    eprintln!(
        "serving {} on http://127.0.0.1:{port}/ (Ctrl-C stops)",
        dist.display()
    );
    for stream in listener.incoming().flatten() {
        if let Err(e) = answer(dist, stream) {
            eprintln!("xtask web: {e}");
        }
    }
    Ok(())
}

/// Answers one GET with a file of `dist` (no directory listing, nothing outside `dist`).
fn answer(dist: &Path, mut stream: TcpStream) -> std::io::Result<()> {
    let mut line = String::new();
    BufReader::new(&stream).read_line(&mut line)?;
    let path = line.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let name = if path == "/" {
        "index.html"
    } else {
        path.trim_start_matches('/')
    };
    let file = (!name.split('/').any(|seg| seg == ".." || seg.is_empty()))
        .then(|| dist.join(name))
        .filter(|f| f.is_file());
    match file.and_then(|f| std::fs::read(&f).ok().map(|b| (f, b))) {
        Some((f, body)) => {
            write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
                content_type(&f),
                body.len()
            )?;
            stream.write_all(&body)
        }
        None => {
            let body = b"not found";
            write!(
                stream,
                "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            )?;
            stream.write_all(body)
        }
    }
}

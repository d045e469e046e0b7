//! Finding scenarios: a built-in id or a file (read with a size limit, so a huge file is refused
//! before it is read), the `.toml` files of a folder, and "did you mean" for a misspelt id.

use std::io::Read;
use std::path::{Path, PathBuf};

use lockstep_core::scenario::warnings;
use lockstep_core::{Scenario, catalogue, parse_scenario};

use crate::error::CliError;

/// The largest scenario file the core accepts (its `MAX_FILE_BYTES`: 256 KiB). Checked here from
/// the file's size, before the file is read, so a 150 MB file costs nothing.
pub const MAX_FILE_BYTES: u64 = 256 * 1024;

/// A built-in id, a file path, or `-` for stdin.
pub fn load(arg: &str) -> Result<Scenario, CliError> {
    load_with_text(arg).map(|(scenario, _)| scenario)
}

/// [`load`], with the scenario's text (to locate what a run reports in it).
pub fn load_with_text(arg: &str) -> Result<(Scenario, String), CliError> {
    if let Some(parsed) = catalogue::load(arg) {
        let text = catalogue::source(arg).unwrap_or_default().to_string();
        return Ok((parsed?, text));
    }
    if arg == "-" {
        // `-` is stdin, as for most tools: `lockstep run - < my.toml`, or a generated scenario.
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| CliError::Input(format!("cannot read stdin: {e}")))?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(CliError::Input(format!(
                "stdin: more than {}; scenario files may be at most that large",
                size(MAX_FILE_BYTES)
            )));
        }
        return parse_and_warn(STDIN, &bytes);
    }
    let bytes = read_limited(arg)?;
    parse_and_warn(arg, &bytes)
}

/// Parses a user's file and says on stderr what in it is legal but unlike a real deployment (a
/// 2-node etcd cluster, a one-instance Redlock): the run goes ahead.
fn parse_and_warn(file: &str, bytes: &[u8]) -> Result<(Scenario, String), CliError> {
    let scenario = parse_scenario(file, bytes)?;
    let text = String::from_utf8_lossy(bytes).into_owned();
    for warning in warnings(file, &text, &scenario) {
        eprintln!("warning: {warning}");
    }
    Ok((scenario, text))
}

/// How a scenario argument is named in messages: `-` is `<stdin>`, as in parse errors.
pub fn shown_as(arg: &str) -> &str {
    if arg == "-" { STDIN } else { arg }
}

const STDIN: &str = "<stdin>";

/// Reads a scenario file whole, refusing folders and anything larger than [`MAX_FILE_BYTES`]
/// (by its size first, then by reading at most one byte more, for files that do not know their
/// size, such as `/dev/zero`).
fn read_limited(arg: &str) -> Result<Vec<u8>, CliError> {
    let path = Path::new(arg);
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(not_found(arg)),
        Err(e) => return Err(CliError::Input(format!("{arg}: cannot read: {e}"))),
    };
    if meta.is_dir() {
        return Err(CliError::Input(format!(
            "{arg} is a folder, not a scenario file; `lockstep check {arg}` checks every .toml file in it"
        )));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_large(arg, meta.len()));
    }
    let file = std::fs::File::open(path)
        .map_err(|e| CliError::Input(format!("{arg}: cannot read: {e}")))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::Input(format!("{arg}: cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(CliError::Input(format!(
            "{arg}: the file is larger than {}; scenario files may be at most that large",
            size(MAX_FILE_BYTES)
        )));
    }
    Ok(bytes)
}

fn too_large(arg: &str, bytes: u64) -> CliError {
    CliError::Input(format!(
        "{arg}: the file is {}; scenario files may be at most {} (the built-ins are under 8 KiB)",
        size(bytes),
        size(MAX_FILE_BYTES)
    ))
}

/// A file size for people: `150.0 MiB`, `300 KiB`, `12 bytes`.
fn size(bytes: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * 1024;
    if bytes >= MIB {
        format!("{:.1} MiB", bytes as f64 / MIB as f64)
    } else if bytes >= KIB {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// Neither a built-in nor an existing file: say which of the two it looked like, and suggest the
/// built-ins it is closest to.
fn not_found(arg: &str) -> CliError {
    let looks_like_a_path = arg.contains(['/', '\\']) || arg.ends_with(".toml");
    let stem = Path::new(arg)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(arg);
    let suggestions = catalogue::did_you_mean(if looks_like_a_path { stem } else { arg });
    let hint = match catalogue::did_you_mean_phrase(&suggestions, |id| format!("`{id}`")) {
        Some(phrase) => format!("{phrase} (`lockstep list` shows the built-ins)"),
        None => "`lockstep list` shows the built-ins".to_string(),
    };
    if looks_like_a_path {
        CliError::Input(format!("{arg}: no such file; {hint}"))
    } else {
        CliError::Input(format!(
            "`{arg}` is neither a built-in scenario nor a file; {hint}"
        ))
    }
}

/// What `lockstep check` was asked to check, with folders replaced by their `.toml` files.
#[derive(Debug)]
pub enum Target {
    /// A built-in id or a file path, as given.
    Scenario(String),
    /// A folder with no `.toml` file in it, or one that cannot be listed.
    BadFolder { path: String, why: String },
}

/// Expands each folder in `args` into its `.toml` files (sorted by name; not recursive).
pub fn targets(args: &[String]) -> Vec<Target> {
    let mut out = Vec::new();
    for arg in args {
        if catalogue::source(arg).is_some() || !Path::new(arg).is_dir() {
            out.push(Target::Scenario(arg.clone()));
            continue;
        }
        match toml_files(Path::new(arg)) {
            Ok(files) if files.is_empty() => out.push(Target::BadFolder {
                path: arg.clone(),
                why: "the folder has no .toml files".into(),
            }),
            Ok(files) => out.extend(
                files
                    .into_iter()
                    .map(|f| Target::Scenario(f.display().to_string())),
            ),
            Err(e) => out.push(Target::BadFolder {
                path: arg.clone(),
                why: format!("cannot list the folder: {e}"),
            }),
        }
    }
    out
}

fn toml_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_file() && path.extension().is_some_and(|e| e == "toml") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_say_them() {
        assert_eq!(size(150 * 1024 * 1024), "150.0 MiB");
        assert_eq!(size(300 * 1024), "300 KiB");
        assert_eq!(size(12), "12 bytes");
    }
}

//! The URL hash that holds a view (`#scenario=ID&step=N|end&mode=scale&chart=lease&speed=2&whatif=…&src=…`,
//! and `file=NAME` for an uploaded file whose name is not the scenario's):
//! parsing with a clear message for every mangled part, and writing it back.
//!
//! What-if changes (JSON) and an uploaded scenario (TOML) travel deflated and base64url-encoded, so
//! a link holds the whole view and needs no server.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use lockstep_core::WhatIf;
use lockstep_render::TimeMode;

/// Inflated payloads larger than this are refused (a scenario file may be at most 256 KiB).
const MAX_INFLATED: usize = 512 * 1024;

/// Steps per second while playing (a link's `speed=` names one of them).
pub const SPEEDS: [f64; 5] = [0.5, 1.0, 2.0, 4.0, 8.0];

/// The speed a run plays at unless a link says otherwise (1 step/s), as an index into [`SPEEDS`].
pub const DEFAULT_SPEED: usize = 1;

/// Which step a link points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StepTarget {
    /// Step n (0 shows no event yet).
    #[default]
    Start,
    At(usize),
    End,
}

/// Which picture is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Chart {
    #[default]
    Timeline,
    Lease,
}

/// How much of the embed page's chrome is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Controls {
    /// The picture only.
    None,
    /// Back, forward and the step number.
    #[default]
    Minimal,
    /// Every stepping control, the time-mode switch and the explanation.
    Full,
}

/// Everything a link restores.
#[derive(Debug, Clone, PartialEq)]
pub struct View {
    /// A built-in id, or the name of an uploaded scenario (then `source` is set).
    pub scenario: String,
    /// The uploaded scenario's TOML.
    pub source: Option<String>,
    /// The uploaded file's name, when it is not the scenario's name with `.toml` (a pasted file is
    /// `pasted.toml`): its warnings name it after the link is opened as before.
    pub file: Option<String>,
    pub step: StepTarget,
    pub time_mode: TimeMode,
    pub chart: Chart,
    pub whatifs: Vec<WhatIf>,
    pub presenter: bool,
    pub controls: Controls,
    /// The play speed, as an index into [`SPEEDS`]: a presenter who set 2 steps/s and shared the
    /// link found it playing at 1 (a review).
    pub speed: usize,
}

impl Default for View {
    fn default() -> Self {
        View {
            scenario: String::new(),
            source: None,
            file: None,
            step: StepTarget::default(),
            time_mode: TimeMode::default(),
            chart: Chart::default(),
            whatifs: Vec::new(),
            presenter: false,
            controls: Controls::default(),
            speed: DEFAULT_SPEED,
        }
    }
}

/// A hash that cannot be read, and which part is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HashError {
    #[error("the link has no scenario (expected #scenario=ID)")]
    NoScenario,
    #[error("the link's “{key}={value}” is not valid: {expected}")]
    BadValue {
        key: String,
        value: String,
        expected: &'static str,
    },
    #[error("the link's “{key}” part is damaged: {why}")]
    BadPayload { key: String, why: String },
    #[error(
        "the link has an unknown part “{0}” (known: scenario, step, mode, chart, speed, whatif, src, file, present, controls)"
    )]
    UnknownKey(String),
    #[error("there is no built-in scenario “{0}”{hint}", hint = crate::catalogue::did_you_mean(.0))]
    UnknownScenario(String),
    #[error("the link gives “{0}” more than once (the last is used)")]
    Repeated(String),
}

/// Everything wrong with a hash, in the order of its parts (at least one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HashErrors(pub Vec<HashError>);

impl std::fmt::Display for HashErrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for HashErrors {}

fn bad(key: &str, value: &str, expected: &'static str) -> HashError {
    HashError::BadValue {
        key: key.into(),
        value: value.chars().take(40).collect(),
        expected,
    }
}

/// Deflates and base64url-encodes `text`.
pub fn pack(text: &str) -> String {
    URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 9))
}

/// Reverses [`pack`]; the error says what is wrong with the payload.
pub fn unpack(packed: &str) -> Result<String, String> {
    let bytes = URL_SAFE_NO_PAD
        .decode(packed.trim_end_matches('='))
        // The decoder's own words ("Invalid symbol 33, offset 8") mean nothing to a reader. A
        // link cut at a character the format uses decodes to a length or a last character that
        // cannot end a link: it was cut short, not edited.
        .map_err(|e| match e {
            base64::DecodeError::InvalidLength(_) | base64::DecodeError::InvalidLastSymbol(..) => {
                "it is cut short (the link was truncated)".to_string()
            }
            _ => {
                "it holds characters a lockstep link never has (was it cut or edited?)".to_string()
            }
        })?;
    let raw = miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, MAX_INFLATED)
        // miniz names its failures after its state machine; say what they mean for a link.
        .map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => {
                "it is too large once unpacked".to_string()
            }
            miniz_oxide::inflate::TINFLStatus::FailedCannotMakeProgress => {
                "it is cut short (the link was truncated)".to_string()
            }
            _ => "its compressed data cannot be unpacked".to_string(),
        })?;
    String::from_utf8(raw).map_err(|_| "it is not UTF-8 text".to_string())
}

/// The key of a hash's `key=value` part.
fn key_of(part: &str) -> &str {
    part.split_once('=').map_or(part, |(k, _)| k)
}

/// Decodes `%xx` escapes (browsers may escape characters of a pasted hash).
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl View {
    /// A view of a built-in scenario at step 0.
    pub fn of(scenario: &str) -> View {
        View {
            scenario: scenario.to_string(),
            ..View::default()
        }
    }

    /// Reads a location hash (with or without the leading `#`). An empty hash is `Ok(None)`.
    /// Every mangled part is reported, and so is a built-in scenario that does not exist.
    pub fn parse(hash: &str) -> Result<Option<View>, HashErrors> {
        match View::parse_keeping(hash)? {
            Some((view, ignored)) if ignored.is_empty() => Ok(Some(view)),
            Some((_, ignored)) => Err(HashErrors(ignored)),
            None => Ok(None),
        }
    }

    /// As [`View::parse`], but a link whose scenario (and what-ifs, and uploaded file) can be
    /// opened keeps them when only how it is shown is mangled (`step`, `mode`, `chart`,
    /// `present`, `controls`, an unknown part): those parts keep their defaults and come back as
    /// the second value, so that a typo in a slide's link still opens its scenario.
    pub fn parse_keeping(hash: &str) -> Result<Option<(View, Vec<HashError>)>, HashErrors> {
        let errors = match View::parse_all(hash) {
            Ok(view) => return Ok(view.map(|v| (v, Vec::new()))),
            Err(errors) => errors,
        };
        // Parts without which the scenario still opens: a damaged what-if opens the run as
        // written, and says so.
        let cosmetic = |e: &HashError| match e {
            HashError::BadValue { key, .. } => {
                matches!(
                    key.as_str(),
                    "step" | "mode" | "chart" | "speed" | "present" | "controls" | "file"
                )
            }
            HashError::BadPayload { key, .. } => key == "whatif",
            HashError::UnknownKey(_) | HashError::Repeated(_) => true,
            _ => false,
        };
        if !errors.0.iter().all(cosmetic) {
            return Err(errors);
        }
        // Read again without the ignored parts: each part is read on its own, so the rest is
        // exactly what the link says.
        let hash = hash.strip_prefix('#').unwrap_or(hash).trim();
        let valid: Vec<&str> = hash
            .split('&')
            .filter(|p| {
                let mut view = View::default();
                view.read_part(p, &mut false).is_ok()
            })
            .collect();
        // A part given twice: the last one.
        let kept: Vec<&str> = valid
            .iter()
            .enumerate()
            .filter(|(i, p)| !valid[i + 1..].iter().any(|q| key_of(q) == key_of(p)))
            .map(|(_, p)| *p)
            .collect();
        match View::parse_all(&kept.join("&")) {
            Ok(Some(view)) => Ok(Some((view, errors.0))),
            _ => Err(errors),
        }
    }

    /// Reads a hash, failing on any mangled part.
    fn parse_all(hash: &str) -> Result<Option<View>, HashErrors> {
        let hash = hash.strip_prefix('#').unwrap_or(hash).trim();
        if hash.is_empty() {
            return Ok(None);
        }
        let mut view = View::default();
        let mut has_scenario = false;
        let mut errors = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for part in hash.split('&').filter(|p| !p.is_empty()) {
            let key = key_of(part);
            if seen.contains(&key) {
                errors.push(HashError::Repeated(key.chars().take(40).collect()));
            } else {
                seen.push(key);
            }
            if let Err(e) = view.read_part(part, &mut has_scenario) {
                errors.push(e);
            }
        }
        if !has_scenario
            && !errors
                .iter()
                .any(|e| matches!(e, HashError::BadValue { key, .. } if key == "scenario"))
        {
            errors.push(HashError::NoScenario);
        }
        // An uploaded scenario travels in `src`; any other id must be a built-in one (a damaged
        // `src` is the fault then, said above, not the id).
        let src_damaged = errors
            .iter()
            .any(|e| matches!(e, HashError::BadPayload { key, .. } if key == "src"));
        if has_scenario
            && !src_damaged
            && view.source.is_none()
            && !crate::catalogue::ids().any(|id| id == view.scenario)
        {
            errors.push(HashError::UnknownScenario(view.scenario.clone()));
        }
        if errors.is_empty() {
            Ok(Some(view))
        } else {
            Err(HashErrors(errors))
        }
    }

    /// Reads one `key=value` part of a hash into the view.
    fn read_part(&mut self, part: &str, has_scenario: &mut bool) -> Result<(), HashError> {
        let view = self;
        {
            let (key, value) = part.split_once('=').unwrap_or((part, ""));
            let value = percent_decode(value);
            match key {
                "scenario" => {
                    let ok = !value.is_empty()
                        && value.len() <= 64
                        && value
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.');
                    if !ok {
                        return Err(bad(key, &value, "a scenario id such as fenced-gc-pause"));
                    }
                    view.scenario = value;
                    *has_scenario = true;
                }
                "step" => {
                    view.step = match value.as_str() {
                        "end" => StepTarget::End,
                        n => match n.parse::<usize>() {
                            Ok(0) => StepTarget::Start,
                            Ok(n) => StepTarget::At(n),
                            Err(_) => return Err(bad(key, n, "a step number or “end”")),
                        },
                    }
                }
                "mode" => {
                    view.time_mode = match value.as_str() {
                        "logical" => TimeMode::Logical,
                        "scale" => TimeMode::ToScale,
                        v => return Err(bad(key, v, "“logical” or “scale”")),
                    }
                }
                "chart" => {
                    view.chart = match value.as_str() {
                        "timeline" => Chart::Timeline,
                        "lease" => Chart::Lease,
                        v => return Err(bad(key, v, "“timeline” or “lease”")),
                    }
                }
                "speed" => {
                    // As the speed list names them, in steps per second ("0.5", "2").
                    view.speed = value
                        .parse::<f64>()
                        .ok()
                        .and_then(|v| SPEEDS.iter().position(|s| *s == v))
                        .ok_or_else(|| {
                            bad(
                                key,
                                &value,
                                "a play speed in steps per second: 0.5, 1, 2, 4 or 8",
                            )
                        })?;
                }
                "present" => {
                    view.presenter = match value.as_str() {
                        "1" | "" => true,
                        "0" => false,
                        v => return Err(bad(key, v, "“1” or “0”")),
                    }
                }
                "controls" => {
                    view.controls = match value.as_str() {
                        "none" => Controls::None,
                        "minimal" => Controls::Minimal,
                        "full" => Controls::Full,
                        v => return Err(bad(key, v, "“none”, “minimal” or “full”")),
                    }
                }
                "whatif" => {
                    let json = unpack(&value).map_err(|why| HashError::BadPayload {
                        key: key.into(),
                        why,
                    })?;
                    view.whatifs =
                        serde_json::from_str(&json).map_err(|e| HashError::BadPayload {
                            key: key.into(),
                            why: format!("it is not a list of what-if changes ({e})"),
                        })?;
                }
                "src" => {
                    view.source = Some(unpack(&value).map_err(|why| HashError::BadPayload {
                        key: key.into(),
                        why,
                    })?);
                }
                "file" => {
                    let ok = !value.trim().is_empty()
                        && value.chars().count() <= FILE_NAME_MAX
                        && !value
                            .chars()
                            .any(|c| c.is_control() || c == '/' || c == '\\');
                    if !ok {
                        return Err(bad(key, &value, "a file name such as mine.toml"));
                    }
                    view.file = Some(value);
                }
                // A part with no name ("=x", "==??") is shown whole: “” says nothing.
                "" => return Err(HashError::UnknownKey(part.chars().take(40).collect())),
                other => return Err(HashError::UnknownKey(other.chars().take(40).collect())),
            }
        }
        Ok(())
    }

    /// Writes the view as a hash (with the leading `#`). `step` is the current step and `at_end`
    /// says whether it is the last one (then the link says `step=end`).
    pub fn to_hash(&self) -> String {
        self.write_hash(false)
    }

    /// The embed page's hash: as [`View::to_hash`], but always naming the step and the controls
    /// (`controls=minimal` too), so that a snippet says what it shows.
    pub fn to_embed_hash(&self) -> String {
        self.write_hash(true)
    }

    /// Writes the hash; `explicit` writes the step and controls even where they are the defaults.
    fn write_hash(&self, explicit: bool) -> String {
        let mut out = format!("#scenario={}", self.scenario);
        match self.step {
            StepTarget::Start if explicit => out.push_str("&step=0"),
            StepTarget::Start => {}
            StepTarget::At(n) => out.push_str(&format!("&step={n}")),
            StepTarget::End => out.push_str("&step=end"),
        }
        if self.time_mode == TimeMode::ToScale {
            out.push_str("&mode=scale");
        }
        if self.chart == Chart::Lease {
            out.push_str("&chart=lease");
        }
        if self.speed != DEFAULT_SPEED
            && let Some(speed) = SPEEDS.get(self.speed)
        {
            out.push_str(&format!("&speed={speed}"));
        }
        if self.presenter {
            out.push_str("&present=1");
        }
        if explicit || self.controls != Controls::Minimal {
            let c = match self.controls {
                Controls::None => "none",
                Controls::Minimal => "minimal",
                Controls::Full => "full",
            };
            out.push_str(&format!("&controls={c}"));
        }
        if !self.whatifs.is_empty() {
            // Serialising plain data cannot fail.
            let json = serde_json::to_string(&self.whatifs).unwrap_or_default();
            out.push_str(&format!("&whatif={}", pack(&json)));
        }
        if let Some(src) = &self.source {
            out.push_str(&format!("&src={}", pack(src)));
            if let Some(file) = &self.file {
                out.push_str(&format!("&file={}", percent_encode(file)));
            }
        }
        out
    }

    /// The name an uploaded scenario's messages give its file: the one it was uploaded as, else
    /// the scenario's name with `.toml`.
    pub fn file_name(&self) -> String {
        self.file
            .clone()
            .unwrap_or_else(|| format!("{}.toml", self.scenario))
    }
}

/// The longest file name a link carries, in characters.
const FILE_NAME_MAX: usize = 100;

/// `text` with every byte but ASCII letters, digits and `-_.~` written `%XX` (the inverse of
/// [`percent_decode`]).
fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Which scenario `hash` opens: its `scenario` and, for one of the user's own, its `src` (the
/// page adds a history entry when this changes, see `app::dom::replace_hash`).
pub fn scenario_of(hash: &str) -> (Option<&str>, Option<&str>) {
    let param = |name: &str| {
        hash.trim_start_matches('#')
            .split('&')
            .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
    };
    (param("scenario"), param("src"))
}

/// `hash` (with its `#`) with `scenario=` set to `id`, its other parts (step, mode, controls)
/// kept; `#scenario=id` when it has none.
pub fn with_scenario(hash: &str, id: &str) -> String {
    let parts: Vec<String> = hash
        .trim_start_matches('#')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            if p.starts_with("scenario=") {
                format!("scenario={id}")
            } else {
                p.to_string()
            }
        })
        .collect();
    if parts.iter().any(|p| p.starts_with("scenario=")) {
        format!("#{}", parts.join("&"))
    } else {
        format!("#scenario={id}")
    }
}

#[cfg(test)]
mod tests;

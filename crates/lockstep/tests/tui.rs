//! The terminal UI end to end: the real binary in tmux (start it, send keys, read the screen
//! with capture-pane), and the checks made before any screen is drawn.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// How long a screen may take to show what a test waits for.
const PATIENCE: Duration = Duration::from_secs(20);

/// A private tmux server (its own socket), so the tests never touch anyone's sessions.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// Starts `lockstep args...` in a 120x40 window; when it exits the window shows its exit
    /// status and whether the terminal is back in cooked mode.
    fn start(name: &str, args: &str) -> Tmux {
        let socket = format!("lockstep-tui-{name}-{}", std::process::id());
        let bin = env!("CARGO_BIN_EXE_lockstep");
        let script = format!(
            "{bin} {args}; echo \"exit status $?\"; stty -a | tr ' ' '\\n' | grep -x -e icanon -e -icanon; sleep 60"
        );
        let status = Command::new("tmux")
            .args(["-L", &socket, "-f", "/dev/null", "new-session", "-d"])
            .args(["-x", "120", "-y", "40", "sh", "-c", &script])
            .env("TERM", "xterm-256color")
            .status()
            .expect("tmux is needed for this test (Debian: apt-get install tmux)");
        assert!(status.success(), "tmux could not start a session");
        Tmux { socket }
    }

    fn screen(&self) -> String {
        let o = Command::new("tmux")
            .args(["-L", &self.socket, "capture-pane", "-p"])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        let status = Command::new("tmux")
            .args(["-L", &self.socket, "send-keys"])
            .args(keys)
            .status()
            .expect("tmux send-keys");
        assert!(status.success());
    }

    /// Waits until the screen contains every one of `texts`; returns it.
    fn wait_for(&self, texts: &[&str]) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if texts.iter().all(|t| screen.contains(t)) {
                return screen;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "waited {PATIENCE:?} for {texts:?}; the screen shows:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .status();
    }
}

/// After `q`: the program exited 0, the alternate screen is gone and raw mode is off.
fn assert_terminal_restored(t: &Tmux, tui_text: &str) {
    let screen = t.wait_for(&["exit status 0", "icanon"]);
    assert!(!screen.contains("-icanon"), "raw mode left on:\n{screen}");
    assert!(
        !screen.contains(tui_text),
        "the UI is still on screen:\n{screen}"
    );
}

#[test]
fn fenced_gc_pause_ends_with_the_rejected_write_and_safe_then_q_restores_the_terminal() {
    let t = Tmux::start("fenced", "tui fenced-gc-pause");
    t.wait_for(&["fenced-gc-pause", "step 0/41"]);
    t.keys(&["End"]);
    // ⊘ is the rejection's own mark.
    t.wait_for(&["step 41/41", "rejected — 33 < last_token 34", "⊘", "safe"]);
    t.keys(&["q"]);
    assert_terminal_restored(&t, "step 41/41");
}

#[test]
fn a_pause_injected_through_the_what_if_menu_makes_a_double_write() {
    // Step 9: A has read "unpaid" and is working; a 10 s pause outlasts its 5 s TTL, B takes
    // the lock, finds the batch unpaid too, and both pay.
    let t = Tmux::start("whatif", "tui naive-happy-path");
    t.wait_for(&["naive-happy-path", "step 0/"]);
    for _ in 0..9 {
        t.keys(&["l"]);
    }
    t.wait_for(&["step 9/"]);
    t.keys(&["f"]);
    t.wait_for(&["what-if at step 9", "pause A for 10 s"]);
    t.keys(&["Enter"]);
    t.wait_for(&["what-if branch from step 9"]);
    t.keys(&["End"]);
    // ▲ is the duplicate's own mark.
    t.wait_for(&["double-write", "▲", "what-if branch from step 9"]);
    t.keys(&["u"]);
    t.wait_for(&["step 9/"]);
    t.keys(&["q"]);
    assert_terminal_restored(&t, "naive-happy-path —");
}

#[test]
fn ctrl_c_quits_the_picker_and_restores_the_terminal() {
    let t = Tmux::start("picker", "");
    t.wait_for(&["filter:", "naive-happy-path"]);
    t.keys(&["fenced"]);
    let screen = t.wait_for(&["filter: fenced", "fenced-gc-pause"]);
    assert!(!screen.contains("naive-happy-path"), "{screen}");
    t.keys(&["C-c"]);
    assert_terminal_restored(&t, "filter:");
}

fn lockstep(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lockstep-tui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write temp file");
    path
}

#[test]
fn an_invalid_file_gets_its_located_error_and_exit_2_before_any_screen() {
    let path = temp_file("bad.toml", "name = \"bad\"\n[lock]\nkind = \"zookeeper\"\n");
    let o = lockstep(&["tui", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty(), "nothing drawn");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.toml") && err.contains("kind"), "{err}");
}

#[test]
fn an_unknown_id_is_refused_and_without_a_terminal_the_tui_says_so() {
    let o = lockstep(&["tui", "no-such-scenario"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("neither a built-in"));
    let o = lockstep(&["tui", "fenced-gc-pause"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("needs a terminal"));
    // No arguments and no terminal: the help, as before.
    let o = lockstep(&[]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("Usage"));
}

//! The live dashboard of `gsd ralph run --phase N --dashboard`: every plan
//! with its wave, status, iteration, the tool its agent is using, checks,
//! elapsed time and cost, redrawn on each event.
//!
//! Keys: ↑/↓ select a plan, `l` shows the tail of its latest log, `s`
//! stops it (as `gsd ralph stop` would, between iterations), `p` or `q`
//! pauses the run (as Ctrl+C does; `--resume` or a new phase run goes on).

use std::io::Stdout;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ratatui::Terminal;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Layout};
use ratatui::prelude::CrosstermBackend;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Row, Table, Wrap};

use crate::ralph::run::board::{Board, PlanStatus};
use crate::ralph::run::events::{RunEvent, Sink};

/// What the view shows besides the board.
#[derive(Debug, Clone, Default)]
pub struct View {
    pub selected: usize,
    /// The selected plan's log tail, when `l` opened it.
    pub log: Option<String>,
}

fn status_style(s: PlanStatus) -> Style {
    match s {
        PlanStatus::Complete | PlanStatus::Done => Style::new().fg(Color::Green),
        PlanStatus::Failed => Style::new().fg(Color::Red),
        PlanStatus::Running => Style::new().fg(Color::Yellow),
        PlanStatus::Limited => Style::new().fg(Color::Magenta),
        PlanStatus::Waiting | PlanStatus::Skipped => Style::new().fg(Color::DarkGray),
    }
}

/// Seconds as `1m05s` / `42s`.
fn elapsed(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// Draw the board (a pure function of board and view, snapshot-tested).
pub fn draw(f: &mut ratatui::Frame, board: &Board, view: &View) {
    let log_height = if view.log.is_some() { 12 } else { 0 };
    let [head, body, log, foot] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(log_height),
        Constraint::Length(1),
    ])
    .areas(f.area());
    let total: f64 = board.plans.iter().map(|p| p.cost_usd).sum();
    let done = board
        .plans
        .iter()
        .filter(|p| matches!(p.status, PlanStatus::Complete | PlanStatus::Done))
        .count();
    f.render_widget(
        Paragraph::new(format!(
            "{}  ·  {done}/{} plans done  ·  ${total:.4}",
            board.title,
            board.plans.len()
        ))
        .style(Style::new().add_modifier(Modifier::BOLD)),
        head,
    );
    let rows = board.plans.iter().enumerate().map(|(i, p)| {
        let iter = if p.max_iterations > 0 {
            format!("{}/{}", p.iteration, p.max_iterations)
        } else {
            String::new()
        };
        let checks = if p.checks_total > 0 {
            format!("{}/{}", p.checks_passed, p.checks_total)
        } else {
            String::new()
        };
        let doing = p
            .tool
            .clone()
            .or_else(|| p.note.clone())
            .unwrap_or_default();
        let row = Row::new(vec![
            p.plan.clone(),
            p.wave.to_string(),
            p.status.as_str().to_owned(),
            iter,
            checks,
            elapsed(p.elapsed_ms),
            format!("${:.4}", p.cost_usd),
            doing,
        ]);
        let style = status_style(p.status);
        row.style(if i == view.selected {
            style.add_modifier(Modifier::REVERSED)
        } else {
            style
        })
    });
    let table = Table::new(
        rows,
        [
            Constraint::Length(10),
            Constraint::Length(4),
            Constraint::Length(11),
            Constraint::Length(6),
            Constraint::Length(6),
            Constraint::Length(7),
            Constraint::Length(9),
            Constraint::Min(10),
        ],
    )
    .header(
        Row::new([
            "plan", "wave", "status", "iter", "checks", "time", "cost", "doing",
        ])
        .style(Style::new().add_modifier(Modifier::UNDERLINED)),
    )
    .block(Block::bordered().title("plans"));
    f.render_widget(table, body);
    if let Some(text) = &view.log {
        let name = board
            .plans
            .get(view.selected)
            .map_or(String::new(), |p| p.plan.clone());
        f.render_widget(
            Paragraph::new(text.as_str())
                .wrap(Wrap { trim: false })
                .block(Block::bordered().title(format!("log of {name}"))),
            log,
        );
    }
    let footer = match &board.finished {
        Some(end) => format!("phase run finished: {end}"),
        None => "↑/↓ select  l log  s stop plan  p pause  q quit".to_owned(),
    };
    f.render_widget(Paragraph::new(Line::from(footer)), foot);
}

/// The last `n` lines of the newest iteration log in `dir`.
fn log_tail(dir: Option<PathBuf>, n: usize) -> String {
    let Some(dir) = dir else {
        return "(no log yet)".into();
    };
    let newest = std::fs::read_dir(&dir)
        .ok()
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|f| f.to_string_lossy().starts_with("iteration-"))
        })
        .max();
    let Some(file) = newest else {
        return format!("(no iteration log in {} yet)", dir.display());
    };
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let tail = lines[lines.len().saturating_sub(n)..].join("\n");
    format!("{}\n{tail}", file.display())
}

type Term = Terminal<CrosstermBackend<Stdout>>;

struct Shared {
    board: Board,
    view: View,
    term: Term,
}

impl Shared {
    fn redraw(&mut self) {
        let (board, view) = (&self.board, &self.view);
        let _ = self.term.draw(|f| draw(f, board, view));
    }
}

/// A running dashboard: the sink that feeds it, and the key thread.
pub struct Dashboard {
    shared: Arc<Mutex<Shared>>,
    quit: Arc<AtomicBool>,
    keys: Option<std::thread::JoinHandle<()>>,
}

impl Dashboard {
    /// Take over the terminal and show `board`; `root` is the project (logs,
    /// and where `s` stops a plan).
    pub fn start(board: Board, root: &Path) -> std::io::Result<Dashboard> {
        let term = ratatui::try_init()?;
        let shared = Arc::new(Mutex::new(Shared {
            board,
            view: View::default(),
            term,
        }));
        shared.lock().expect("dashboard").redraw();
        let quit = Arc::new(AtomicBool::new(false));
        let (s, q, root) = (shared.clone(), quit.clone(), root.to_path_buf());
        let keys = std::thread::spawn(move || key_loop(&s, &q, &root));
        Ok(Dashboard {
            shared,
            quit,
            keys: Some(keys),
        })
    }

    /// The sink to give the runner: each event updates and redraws.
    pub fn sink(&self) -> Sink {
        let shared = self.shared.clone();
        Box::new(move |e: &RunEvent| {
            let mut s = shared.lock().expect("dashboard");
            s.board.apply(e);
            s.redraw();
        })
    }

    /// Give the terminal back and print the final board as plain lines.
    pub fn finish(mut self) -> String {
        self.quit.store(true, Ordering::SeqCst);
        if let Some(k) = self.keys.take() {
            let _ = k.join();
        }
        ratatui::restore();
        let s = self.shared.lock().expect("dashboard");
        let mut out = String::new();
        for p in &s.board.plans {
            out.push_str(&format!(
                "{:<10} wave {:<3} {:<11} {:>8} ${:.4}{}\n",
                p.plan,
                p.wave,
                p.status.as_str(),
                elapsed(p.elapsed_ms),
                p.cost_usd,
                p.note
                    .as_deref()
                    .map(|n| format!("  {n}"))
                    .unwrap_or_default()
            ));
        }
        if let Some(end) = &s.board.finished {
            out.push_str(&format!("phase run finished: {end}\n"));
        }
        out
    }
}

/// Read keys until the run ends; redraw on a key and every half second
/// (an open log keeps up with the agent).
fn key_loop(shared: &Mutex<Shared>, quit: &AtomicBool, root: &Path) {
    while !quit.load(Ordering::SeqCst) {
        let key = match event::poll(Duration::from_millis(500)) {
            Ok(true) => match event::read() {
                Ok(Event::Key(k)) if k.kind == KeyEventKind::Press => Some(k),
                _ => None,
            },
            _ => None,
        };
        let mut s = shared.lock().expect("dashboard");
        let n = s.board.plans.len();
        match key.map(|k| (k.code, k.modifiers)) {
            Some((KeyCode::Up, _)) => s.view.selected = s.view.selected.saturating_sub(1),
            Some((KeyCode::Down, _)) => {
                s.view.selected = (s.view.selected + 1).min(n.saturating_sub(1))
            }
            Some((KeyCode::Char('l'), _)) => {
                s.view.log = match s.view.log {
                    Some(_) => None,
                    None => Some(String::new()),
                }
            }
            Some((KeyCode::Char('s'), _)) => {
                if let Some(p) = s.board.plans.get(s.view.selected) {
                    // The plan runs in the project or in its own worktree.
                    let wt = root.join(".gsd").join(format!("wt-{}", p.plan));
                    let dir = if wt.is_dir() { wt } else { root.to_path_buf() };
                    let said = match crate::ralph::lifecycle::stop(&dir) {
                        Ok(_) => "stopping after this iteration".to_owned(),
                        Err(e) => format!("cannot stop: {e}"),
                    };
                    let i = s.view.selected;
                    s.board.plans[i].note = Some(said);
                }
            }
            Some((KeyCode::Char('p' | 'q'), _))
            | Some((KeyCode::Char('c'), KeyModifiers::CONTROL)) => {
                // Raw mode swallows Ctrl+C: send ourselves the signal the
                // runner pauses on.
                // SAFETY: raising a signal on this process.
                unsafe { libc::raise(libc::SIGINT) };
            }
            _ => {}
        }
        if s.view.log.is_some() {
            let i = s.view.selected;
            s.view.log = Some(log_tail(s.board.log_dir(root, i), 9));
        }
        s.redraw();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ralph::run::events::EventKind;
    use ratatui::backend::TestBackend;
    use serde_json::json;

    fn ev(kind: EventKind, fields: serde_json::Value) -> RunEvent {
        RunEvent { kind, fields }
    }

    /// A phase run half way: 13-01 done, 13-02 running a tool, 13-03 waiting.
    fn board() -> Board {
        let mut b = Board::new(
            "gsd ralph run --phase 13",
            &[
                ("13-01".into(), 1),
                ("13-02".into(), 1),
                ("13-03".into(), 2),
            ],
        );
        let t = |s: u32| format!("2026-11-24T01:00:{s:02}.000Z");
        for e in [
            ev(
                EventKind::Started,
                json!({"plan": "13-01", "ts": t(0), "max_iterations": 4, "checks": 1, "loop_id": "a"}),
            ),
            ev(
                EventKind::Iteration,
                json!({"plan": "13-01", "ts": t(1), "n": 1}),
            ),
            ev(
                EventKind::IterationDone,
                json!({"plan": "13-01", "ts": t(9), "n": 1, "cost_usd": 0.02}),
            ),
            ev(
                EventKind::Verification,
                json!({"plan": "13-01", "ts": t(9), "checks": [{"passed": true}]}),
            ),
            ev(EventKind::Complete, json!({"plan": "13-01", "ts": t(10)})),
            ev(
                EventKind::Started,
                json!({"plan": "13-02", "ts": t(0), "max_iterations": 4, "checks": 2, "loop_id": "b"}),
            ),
            ev(
                EventKind::Iteration,
                json!({"plan": "13-02", "ts": t(2), "n": 2}),
            ),
            ev(
                EventKind::Tool,
                json!({"plan": "13-02", "ts": t(42), "name": "Bash", "command": "cargo test"}),
            ),
        ] {
            b.apply(&e);
        }
        b
    }

    fn render(b: &Board, v: &View) -> String {
        let mut t = Terminal::new(TestBackend::new(90, 12)).unwrap();
        t.draw(|f| draw(f, b, v)).unwrap();
        let buf = t.backend().buffer().clone();
        (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol().to_owned())
                    .collect::<String>()
                    .trim_end()
                    .to_owned()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn the_board_shows_each_plan_with_its_state() {
        insta::assert_snapshot!(render(&board(), &View::default()));
    }

    #[test]
    fn the_end_and_an_open_log_are_shown() {
        let mut b = board();
        b.apply(&ev(
            EventKind::PhaseDone,
            json!({"complete": 1, "done": 0, "failed": 1, "skipped": 1, "not_run": 0}),
        ));
        let v = View {
            selected: 1,
            log: Some("iteration-002-attempt-1.log\nrunning cargo test".into()),
        };
        let mut t = Terminal::new(TestBackend::new(90, 24)).unwrap();
        t.draw(|f| draw(f, &b, &v)).unwrap();
        let text = format!("{:?}", t.backend().buffer());
        assert!(text.contains("log of 13-02"));
        assert!(text.contains("running cargo test"));
        assert!(text.contains("phase run finished: 1 complete"));
    }
}

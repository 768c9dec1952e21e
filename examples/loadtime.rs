//! Where loading time goes, stage by stage (not a test; run with --release).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::Instant;

fn walk(d: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(d).unwrap().flatten() {
        if e.file_type().unwrap().is_dir() {
            walk(&e.path(), out)
        } else {
            out.push(e.path())
        }
    }
}

fn main() {
    // Same memory policy as the gsd binary.
    unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) };
    let root = std::path::PathBuf::from(std::env::args().nth(1).unwrap());
    let n = 30u32;
    if std::env::var_os("FAULTS").is_some() {
        let flt = || {
            let mut u: libc::rusage = unsafe { std::mem::zeroed() };
            unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
            u.ru_minflt
        };
        let a = flt();
        let mut paths = Vec::new();
        walk(&root.join(".planning"), &mut paths);
        let bytes: Vec<_> = paths
            .iter()
            .map(|p| (p.clone(), std::fs::read(p).unwrap()))
            .collect();
        let b = flt();
        let docs: Vec<_> = bytes
            .iter()
            .map(|(p, b)| {
                gsd::model::Document::parse(
                    gsd::doc::Source::from_bytes(p.clone(), b.clone()),
                    p.clone(),
                )
            })
            .collect();
        let c = flt();
        let plans: Vec<_> = docs
            .into_iter()
            .filter(|d| d.file_name().ends_with("PLAN.md"))
            .map(gsd::model::Plan::parse)
            .collect();
        let d = flt();
        eprintln!(
            "read {} docs {} plans {}  ({} plans)",
            b - a,
            c - b,
            d - c,
            plans.len()
        );
        let e = flt();
        let ws = gsd::model::Workspace::load(&root).unwrap();
        let f = flt();
        let diags = gsd::lint::run(&ws, &Default::default());
        let g = flt();
        let out = gsd::lint::output::json::render(&diags, 420);
        let h = flt();
        eprintln!(
            "Workspace::load {} lint {} json {} ({} bytes)",
            f - e,
            g - f,
            h - g,
            out.len()
        );
        return;
    }
    if std::env::var_os("SIZES").is_some() {
        eprintln!(
            "Node {} Value {} Scalar {} Document {} Plan {} Task {} Child {} Element {} Source {}",
            std::mem::size_of::<gsd::doc::yaml::Node>(),
            std::mem::size_of::<gsd::doc::yaml::Value>(),
            std::mem::size_of::<gsd::doc::yaml::Scalar>(),
            std::mem::size_of::<gsd::model::Document>(),
            std::mem::size_of::<gsd::model::Plan>(),
            std::mem::size_of::<gsd::model::Task>(),
            std::mem::size_of::<gsd::model::task::Child>(),
            std::mem::size_of::<gsd::doc::elements::Element>(),
            std::mem::size_of::<gsd::doc::Source>()
        );
        return;
    }
    if std::env::var_os("ONLY_LINT").is_some() {
        let ws = gsd::model::Workspace::load(&root).unwrap();
        for _ in 0..std::env::var("N")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(300)
        {
            std::hint::black_box(gsd::lint::run(&ws, &Default::default()));
        }
        return;
    }
    if std::env::var_os("ONLY_LOAD").is_some() {
        for _ in 0..200 {
            std::hint::black_box(gsd::model::Workspace::load(&root).unwrap());
        }
        return;
    }
    let time = |name: &str, f: &dyn Fn()| {
        let t = Instant::now();
        for _ in 0..n {
            f()
        }
        eprintln!("{name:<28} {:?}", t.elapsed() / n);
    };
    let mut paths = Vec::new();
    walk(&root.join(".planning"), &mut paths);
    time("walk", &|| {
        let mut p = Vec::new();
        walk(&root.join(".planning"), &mut p);
        std::hint::black_box(p);
    });
    time("read", &|| {
        for p in &paths {
            std::hint::black_box(std::fs::read(p).unwrap());
        }
    });
    let bytes: Vec<_> = paths
        .iter()
        .map(|p| (p.clone(), std::fs::read(p).unwrap()))
        .collect();
    time("Source::from_bytes", &|| {
        for (p, b) in &bytes {
            std::hint::black_box(gsd::doc::Source::from_bytes(p.clone(), b.clone()));
        }
    });
    time("Document::parse", &|| {
        for (p, b) in &bytes {
            std::hint::black_box(gsd::model::Document::parse(
                gsd::doc::Source::from_bytes(p.clone(), b.clone()),
                p.clone(),
            ));
        }
    });
    time("+ Plan/Summary::parse", &|| {
        for (p, b) in &bytes {
            let d = gsd::model::Document::parse(
                gsd::doc::Source::from_bytes(p.clone(), b.clone()),
                p.clone(),
            );
            if d.file_name().ends_with("PLAN.md") {
                std::hint::black_box(gsd::model::Plan::parse(d));
            } else {
                std::hint::black_box(gsd::model::summary::Summary::parse(d));
            }
        }
    });
    time("Workspace::load (Full)", &|| {
        std::hint::black_box(gsd::model::Workspace::load(&root).unwrap());
    });
    let ws = gsd::model::Workspace::load(&root).unwrap();
    time("lint::run", &|| {
        std::hint::black_box(gsd::lint::run(&ws, &Default::default()));
    });
    let d = gsd::lint::run(&ws, &Default::default());
    time("json output", &|| {
        std::hint::black_box(gsd::lint::output::json::render(&d, 420));
    });
}

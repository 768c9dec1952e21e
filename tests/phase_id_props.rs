//! `PhaseId` and `PlanId` keep the contract maps, sets and sorting rely on:
//! `a == b` exactly when `a.cmp(b) == Equal`, equal values hash alike, and
//! the order is total (antisymmetric and transitive). Inputs are drawn from
//! the written forms real trees use: padding, project-code prefixes, letter
//! suffixes in either case, decimal groups with leading zeros, custom names.

use std::cmp::Ordering;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use gsd::model::ids::{PhaseId, PlanId};
use proptest::prelude::*;

fn hash_of<T: Hash>(v: &T) -> u64 {
    let mut h = DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

fn phase_text() -> impl Strategy<Value = String> {
    let numeric = (
        prop::option::of(prop::sample::select(vec!["CK-", "PROJ-"])),
        0u8..3,
        0u32..14,
        prop::option::of(prop::sample::select(vec!['a', 'A', 'b', 'B'])),
        prop::collection::vec((0u8..2, 0u32..12), 0..3),
    )
        .prop_map(|(prefix, pad, n, letter, decimals)| {
            let mut s = prefix.unwrap_or("").to_owned();
            s.push_str(&"0".repeat(usize::from(pad)));
            s.push_str(&n.to_string());
            if let Some(l) = letter {
                s.push(l);
            }
            for (pad, d) in decimals {
                s.push('.');
                s.push_str(&"0".repeat(usize::from(pad)));
                s.push_str(&d.to_string());
            }
            s
        });
    let custom = prop::sample::select(vec!["Setup", "setup", "SETUP", "teardown", "AUTH-FLOW"])
        .prop_map(str::to_owned);
    prop_oneof![4 => numeric, 1 => custom]
}

fn check_contract<T: Ord + Hash + std::fmt::Debug>(a: &T, b: &T, c: &T) {
    assert_eq!(a == b, a.cmp(b) == Ordering::Equal, "{a:?} vs {b:?}");
    assert_eq!(a.cmp(b), b.cmp(a).reverse(), "{a:?} vs {b:?}");
    if a == b {
        assert_eq!(hash_of(a), hash_of(b), "{a:?} and {b:?} are equal");
    }
    if a <= b && b <= c {
        assert!(a <= c, "{a:?} <= {b:?} <= {c:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn phase_id_eq_ord_hash_agree(a in phase_text(), b in phase_text(), c in phase_text()) {
        let (a, b, c) = (PhaseId::parse(&a).unwrap(), PhaseId::parse(&b).unwrap(), PhaseId::parse(&c).unwrap());
        check_contract(&a, &b, &c);
        prop_assert_eq!(a == b, a.same(&b));
        prop_assert_eq!(a == b, a.key() == b.key());
    }

    #[test]
    fn plan_id_eq_ord_hash_agree(
        a in phase_text(), b in phase_text(), c in phase_text(),
        pa in 0u32..4, pb in 0u32..4, pc in 0u32..4, padded in any::<bool>(),
    ) {
        let plan = |ph: &str, n: u32, pad: bool| {
            let ph = ph.trim_start_matches("CK-").trim_start_matches("PROJ-");
            let token = if pad { format!("{n:02}") } else { n.to_string() };
            PlanId::parse(&format!("{ph}-{token}"))
        };
        if let (Some(a), Some(b), Some(c)) = (plan(&a, pa, padded), plan(&b, pb, !padded), plan(&c, pc, padded)) {
            check_contract(&a, &b, &c);
            prop_assert_eq!(a == b, a.same(&b));
        }
    }
}

/// The written forms that the old derived `PartialEq` told apart although
/// `Ord` called them equal: now one key in a set.
#[test]
fn padded_and_unpadded_ids_are_one_set_member() {
    let set: std::collections::HashSet<PhaseId> = ["1", "01", "001", "CK-01"]
        .iter()
        .map(|s| PhaseId::parse(s).unwrap())
        .collect();
    assert_eq!(set.len(), 1);
    let plans: std::collections::BTreeSet<PlanId> = ["5-7", "05-07", "05-07-PLAN.md"]
        .iter()
        .map(|s| PlanId::parse(s).unwrap())
        .collect();
    assert_eq!(plans.len(), 1);
    assert_ne!(PhaseId::parse("2.1"), PhaseId::parse("2.10"));
    assert_eq!(PhaseId::parse("02.1").unwrap().unpadded(), "2.1");
    assert_eq!(PhaseId::parse("2.1").unwrap().to_string(), "02.1");
}

//! GSD Core 1.14.0's clock (`clock.cjs`): now, unless a test pins it.
//!
//! gsd-tools reads the instant from one place, and under `GSD_TEST_MODE` a
//! whole number of milliseconds in `GSD_NOW_MS` stands for now; gsd honours
//! the same pin, so a pinned run of either tool stamps the same instant.

/// 1.14.0's `realClock.now()`: the pinned instant under `GSD_TEST_MODE`
/// with a whole-number `GSD_NOW_MS`, else now, in milliseconds.
pub fn now_ms() -> i64 {
    let pinned = std::env::var_os("GSD_TEST_MODE")
        .filter(|v| !v.is_empty())
        .and_then(|_| std::env::var("GSD_NOW_MS").ok())
        .and_then(|raw| {
            let t = super::js::trim(&raw);
            let digits = t.strip_prefix('-').unwrap_or(t);
            (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<i64>().ok())
                .flatten()
                .filter(|ms| ms.unsigned_abs() <= 8_640_000_000_000_000)
        });
    pinned.unwrap_or_else(|| jiff::Timestamp::now().as_millisecond())
}

/// `nowIso()` and `localToday()`: the instant in UTC and the day in the
/// system's time zone, both from [`now_ms`].
pub fn stamps() -> Result<(String, String), super::native::Refusal> {
    use super::native::hand_on;
    let ts = jiff::Timestamp::from_millisecond(now_ms())
        .map_err(|_| hand_on(" for a clock outside the calendar"))?;
    let iso = ts.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
    let local = ts.to_zoned(jiff::tz::TimeZone::system());
    let day = local.strftime("%Y-%m-%d").to_string();
    if iso.len() != 24 || day.len() != 10 {
        return Err(hand_on(" for a clock outside years 0–9999"));
    }
    Ok((iso, day))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_whole_number_pins_the_clock() {
        // SAFETY: this test alone reads these variables; nextest runs each
        // test in a process of its own.
        unsafe {
            std::env::set_var("GSD_TEST_MODE", "1");
            std::env::set_var("GSD_NOW_MS", " 1764626400000 ");
        }
        assert_eq!(now_ms(), 1_764_626_400_000);
        unsafe { std::env::set_var("GSD_NOW_MS", "1e12") };
        assert!(now_ms() > 1_764_626_400_000);
        unsafe {
            std::env::set_var("GSD_NOW_MS", "5");
            std::env::remove_var("GSD_TEST_MODE");
        }
        assert!(now_ms() > 5);
    }
}

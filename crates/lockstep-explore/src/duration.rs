//! Durations as people type them (`500ms`, `2s`, `1.5s`, `1m`, `1h`, `-6s`) and as the output prints them.

/// Parses a duration into milliseconds. `what` names the value in the error.
pub fn parse_ms(text: &str) -> Result<i64, String> {
    let t = text.trim();
    let (sign, body) = match t.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, t.strip_prefix('+').unwrap_or(t)),
    };
    let split = body
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(body.len());
    let (number, unit) = body.split_at(split);
    if number.is_empty() {
        return Err(format!(
            "`{t}` is not a duration: write a number and a unit, e.g. 500ms, 2s, 1.5s or 1m"
        ));
    }
    let scale = match unit {
        "ms" => 1.0,
        "s" => 1000.0,
        "m" | "min" => 60_000.0,
        "h" => 3_600_000.0,
        "d" => 86_400_000.0,
        "" => return Err(format!("`{t}` has no unit: write {number}ms or {number}s")),
        other => {
            return Err(format!(
                "`{t}`: unknown unit `{other}` (use ms, s, m, h or d)"
            ));
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{t}` is not a duration: `{number}` is not a number"))?;
    let ms = value * scale;
    if ms.fract() != 0.0 {
        return Err(format!("`{t}` is not a whole number of milliseconds"));
    }
    if ms > 86_400_000.0 {
        return Err(format!(
            "`{t}` is longer than a day, the longest duration a scenario allows"
        ));
    }
    Ok(sign * ms as i64)
}

/// Prints milliseconds the short way: `500ms`, `2s`, `1.5s`, `-6s`.
pub fn format_ms(ms: i64) -> String {
    if ms != 0 && ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else if ms.abs() >= 1000 && ms % 100 == 0 {
        format!("{}s", ms as f64 / 1000.0)
    } else {
        format!("{ms}ms")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_usual_forms() {
        assert_eq!(parse_ms("500ms"), Ok(500));
        assert_eq!(parse_ms("2s"), Ok(2000));
        assert_eq!(parse_ms("1.5s"), Ok(1500));
        assert_eq!(parse_ms("1m"), Ok(60_000));
        assert_eq!(parse_ms("-6s"), Ok(-6000));
        assert_eq!(parse_ms("0s"), Ok(0));
        assert_eq!(parse_ms("1h"), Ok(3_600_000));
        assert_eq!(parse_ms("1d"), Ok(86_400_000));
    }

    #[test]
    fn rejects_what_is_not_a_duration() {
        assert!(parse_ms("5").unwrap_err().contains("no unit"));
        assert!(parse_ms("5w").unwrap_err().contains("unknown unit"));
        assert!(parse_ms("2d").unwrap_err().contains("longer than a day"));
        assert!(parse_ms("s").unwrap_err().contains("not a duration"));
        assert!(parse_ms("1.2.3s").unwrap_err().contains("not a number"));
        assert!(parse_ms("0.5ms").unwrap_err().contains("whole number"));
        assert!(parse_ms("2000m").unwrap_err().contains("longer than a day"));
    }

    #[test]
    fn formats_short() {
        assert_eq!(format_ms(500), "500ms");
        assert_eq!(format_ms(2000), "2s");
        assert_eq!(format_ms(1500), "1.5s");
        assert_eq!(format_ms(-6000), "-6s");
        assert_eq!(format_ms(0), "0ms");
    }
}

//! Slugs as GSD Core 1.14.0 makes them (`generateSlugInternal`): lower
//! case, Cyrillic transliterated to ASCII (`Привет` → `privet`), every run
//! of other characters one `-`, cut to 60, and the hyphens at either end
//! stripped after the cut. gsd-sdk 1.42.3 reduced a Cyrillic title to
//! nothing and could leave a trailing `-`; folder names and init answers in
//! this dialect need 1.14.0's.

/// `CYRILLIC_TRANSLITERATION`.
fn transliterated(c: char) -> Option<&'static str> {
    Some(match c {
        'а' => "a",
        'б' => "b",
        'в' => "v",
        'г' => "g",
        'д' => "d",
        'е' | 'ё' | 'э' => "e",
        'ж' => "zh",
        'з' => "z",
        'и' | 'і' => "i",
        'й' | 'ы' => "y",
        'к' => "k",
        'л' => "l",
        'м' => "m",
        'н' => "n",
        'о' => "o",
        'п' => "p",
        'р' => "r",
        'с' => "s",
        'т' => "t",
        'у' | 'ў' => "u",
        'ф' => "f",
        'х' => "h",
        'ц' => "ts",
        'ч' => "ch",
        'ш' => "sh",
        'щ' => "sch",
        'ъ' | 'ь' => "",
        'ю' => "yu",
        'я' => "ya",
        'є' => "ye",
        'ї' => "yi",
        'ґ' => "g",
        _ => return None,
    })
}

/// `generateSlugInternal(text, maxLen)`: `None` for empty text; `max_len`
/// `None` leaves the slug uncut.
pub fn slug(text: &str, max_len: Option<usize>) -> Option<String> {
    if text.is_empty() {
        return None;
    }
    let mut collapsed = String::new();
    for c in text.to_lowercase().chars() {
        let piece = transliterated(c)
            .map(str::to_owned)
            .unwrap_or_else(|| c.to_string());
        for p in piece.chars() {
            if p.is_ascii_lowercase() || p.is_ascii_digit() {
                collapsed.push(p);
            } else if !collapsed.ends_with('-') {
                collapsed.push('-');
            }
        }
    }
    let cut = match max_len {
        Some(n) => &collapsed[..collapsed.len().min(n)],
        None => &collapsed,
    };
    Some(cut.trim_matches('-').to_string())
}

#[cfg(test)]
mod tests {
    use super::slug;

    #[test]
    fn slugs_as_gsd_core_makes_them() {
        assert_eq!(
            slug("Привет мир Ünï", Some(60)).as_deref(),
            Some("privet-mir-n")
        );
        assert_eq!(
            slug("  Add user login (v2)!", Some(60)).as_deref(),
            Some("add-user-login-v2")
        );
        assert_eq!(
            slug("Щука і ґанок", None).as_deref(),
            Some("schuka-i-ganok")
        );
        assert_eq!(slug("", Some(60)), None);
        assert_eq!(slug("!!!", Some(60)).as_deref(), Some(""));
        let long = "word ".repeat(20);
        let s = slug(&long, Some(60)).unwrap();
        assert!(s.len() <= 60 && !s.ends_with('-'), "{s}");
        assert_eq!(slug(&long, None).unwrap().len(), 99);
    }
}

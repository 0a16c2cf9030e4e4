//! Tests of the expression language: parsing, types, errors and their columns, and evaluation.

use proptest::prelude::*;

use super::*;

/// A game: an Elo, a speed, plies, a clock, validity, and tags.
struct Game {
    elo: Option<i64>,
    speed: Option<&'static str>,
    plies: i64,
    clock: Option<f64>,
    valid: bool,
    tags: Vec<(&'static str, &'static str)>,
}

impl Default for Game {
    fn default() -> Game {
        Game {
            elo: Some(2500),
            speed: Some("blitz"),
            plies: 80,
            clock: Some(12.5),
            valid: true,
            tags: vec![("WhiteTitle", "GM")],
        }
    }
}

impl Fields for Game {
    fn value(&self, field: usize) -> Value<'_> {
        match field {
            0 => self.elo.map_or(Value::Null, Value::Int),
            1 => self.speed.map_or(Value::Null, Value::Text),
            2 => Value::Int(self.plies),
            3 => self.clock.map_or(Value::Null, Value::Float),
            4 => Value::Bool(self.valid),
            _ => Value::Null,
        }
    }

    fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

fn schema() -> Schema {
    Schema::new([
        ("white_elo", Type::Int),
        ("speed", Type::Text),
        ("plies", Type::Int),
        ("white_clock", Type::Float),
        ("valid", Type::Bool),
    ])
}

fn test(expr: &str, game: &Game) -> bool {
    Filter::parse(expr, &schema())
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
        .matches(game)
}

fn error(expr: &str) -> (usize, String) {
    let err = Filter::parse(expr, &schema()).unwrap_err();
    (err.column, err.message)
}

#[test]
fn comparisons_of_numbers_text_and_truth() {
    let game = Game::default();
    for (expr, expected) in [
        ("white_elo >= 2500", true),
        ("white_elo > 2500", false),
        ("white_elo == 2500.0", true),
        ("white_clock < 13", true),
        ("white_clock <= 12.5 and white_clock >= 12.5", true),
        ("speed == \"blitz\"", true),
        ("speed != 'blitz'", false),
        ("speed < \"bullet\"", true),
        ("valid", true),
        ("not valid", false),
        ("valid == true", true),
        ("valid != false", true),
        ("plies > 200", false),
        ("speed in [\"bullet\", \"blitz\"]", true),
        ("speed in [\"bullet\"]", false),
        ("speed in []", false),
        ("plies in [1, 80,]", true),
        ("speed ~ \"^bl\"", true),
        ("speed ~ \"itz$\" and speed ~ \"l.t\"", true),
        ("speed ~ \"^LITZ\"", false),
        ("tag(\"WhiteTitle\") == \"GM\"", true),
        ("tag(\"BlackTitle\") == null", true),
        ("tag(\"WhiteTitle\") ~ \"M\"", true),
    ] {
        assert_eq!(test(expr, &game), expected, "{expr}");
    }
}

#[test]
fn and_binds_tighter_than_or_and_parentheses_group() {
    let game = Game::default();
    assert!(test("plies > 100 and valid or speed == \"blitz\"", &game));
    assert!(!test(
        "plies > 100 and (valid or speed == \"blitz\")",
        &game
    ));
    assert!(test("not plies > 100 and valid", &game));
    assert!(!test("not (plies < 100 and valid)", &game));
    assert!(test("not not valid", &game));
    assert!(test("((valid))", &game));
}

#[test]
fn a_missing_value_equals_only_null() {
    let game = Game {
        elo: None,
        speed: None,
        clock: None,
        ..Game::default()
    };
    for (expr, expected) in [
        ("white_elo >= 2500", false),
        ("white_elo < 2500", false),
        ("not white_elo >= 2500", true),
        ("white_elo == null", true),
        ("white_elo != null", false),
        ("white_elo != 2500", true),
        ("white_elo == 2500", false),
        ("speed in [\"blitz\"]", false),
        ("speed ~ \".*\"", false),
        ("null == null", true),
        ("white_clock == null and speed == null", true),
    ] {
        assert_eq!(test(expr, &game), expected, "{expr}");
    }
    assert!(test("white_elo != null", &Game::default()));
}

#[test]
fn errors_name_their_column_in_plain_words() {
    assert_eq!(
        error("whte_elo >= 2500"),
        (
            1,
            "unknown field `whte_elo` (did you mean white_elo?)".into()
        )
    );
    assert_eq!(
        error("WhiteTitle == \"GM\""),
        (
            1,
            "unknown field `WhiteTitle` (a tag? write tag(\"WhiteTitle\"))".into()
        )
    );
    assert_eq!(
        error("white_elo >= \"2500\""),
        (14, "white_elo is a number, but \"2500\" is text".into())
    );
    assert_eq!(
        error("speed == 3"),
        (10, "speed is text, but 3 is a number".into())
    );
    assert_eq!(
        error("valid < true"),
        (
            9,
            "true and false have no order: `<` compares numbers and text".into()
        )
    );
    assert_eq!(error("white_elo < null").0, 13);
    assert_eq!(
        error("plies"),
        (
            1,
            "plies is a number, not true or false: compare it (e.g. `plies == ...`)".into()
        )
    );
    assert_eq!(
        error("plies > 3 valid"),
        (
            11,
            "expected `and`, `or` or the end of the expression, found `valid`".into()
        )
    );
    assert_eq!(
        error("speed in [\"a\", 3]"),
        (16, "speed is text, but 3 is a number".into())
    );
    assert_eq!(
        error("speed in [\"a\" \"b\"]"),
        (15, "expected `,` or `]`, found \"b\"".into())
    );
    assert_eq!(error("speed in \"a\"").0, 10);
    assert_eq!(error("plies ~ \"1\"").0, 1);
    let (column, message) = error("speed ~ \"(\"");
    assert_eq!(column, 9);
    assert!(
        message.starts_with("not a regular expression: "),
        "{message}"
    );
    assert_eq!(error("(valid").0, 7);
    assert_eq!(
        error("tag(WhiteTitle) == 1").1,
        "tag( takes a tag name in quotes, e.g. tag(\"WhiteTitle\"); found `WhiteTitle`"
    );
    assert_eq!(
        error("valid and").1,
        "expected a field or a value, found the end of the expression"
    );
    assert_eq!(
        error("and valid").1,
        "expected a field or a value, found `and`"
    );
    assert_eq!(error("").0, 1);
    let deep = format!("{}valid{}", "(".repeat(300), ")".repeat(300));
    assert!(error(&deep).1.contains("nests deeper"));
    let nots = format!("{}valid", "not ".repeat(300));
    assert!(error(&nots).1.contains("nests deeper"));
}

#[test]
fn the_error_shows_a_caret_under_its_column() {
    let expr = "white_elo >= \"2500\"";
    let err = Filter::parse(expr, &schema()).unwrap_err();
    assert_eq!(err.show(expr), "  white_elo >= \"2500\"\n               ^");
}

#[test]
fn the_tags_and_fields_read_are_known() {
    let filter = Filter::parse(
        "tag(\"A\") == \"x\" or tag(\"B\") ~ \"y\" or tag(\"A\") != null or valid",
        &schema(),
    )
    .unwrap();
    assert_eq!(filter.tags(), ["A", "B"]);
    assert!(filter.reads(4));
    assert!(!filter.reads(0));
}

proptest! {
    /// Number comparisons agree with Rust's, whatever the values and the operator.
    #[test]
    fn number_comparisons_agree_with_rust(elo in proptest::option::of(-5000i64..5000), n in -5000i64..5000, op in 0usize..6) {
        let ops = ["==", "!=", "<", "<=", ">", ">="];
        let game = Game { elo, ..Game::default() };
        let expected = match elo {
            None => op == 1,
            Some(e) => [e == n, e != n, e < n, e <= n, e > n, e >= n][op],
        };
        prop_assert_eq!(test(&format!("white_elo {} {n}", ops[op]), &game), expected);
    }

    /// Any text is refused or parsed without panicking, and an error's column is within the text.
    #[test]
    fn any_text_parses_or_is_refused(text in "\\PC{0,40}") {
        if let Err(err) = Filter::parse(&text, &schema()) {
            prop_assert!(err.column >= 1 && err.column <= text.chars().count() + 1);
        }
    }
}

/// A long chain of `and`s or `or`s is one node: parsing, testing and dropping it take no stack
/// per term (100,000 terms on a 256 KiB stack; a tree of pairs overflowed at 10,000 on 8 MiB).
/// See: issue 38, point 6.
#[test]
fn long_chains_take_no_stack_per_term() {
    let run = || {
        let game = Game::default();
        let ands = vec!["valid"; 100_000].join(" and ");
        assert!(test(&ands, &game));
        let ors = vec!["plies > 100"; 100_000].join(" or ") + " or valid";
        assert!(test(&ors, &game));
        let mixed = vec!["plies > 100 and valid"; 50_000].join(" or ");
        assert!(!test(&mixed, &game));
    };
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(run)
        .unwrap()
        .join()
        .unwrap();
}

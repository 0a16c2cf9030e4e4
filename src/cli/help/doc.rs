//! A help topic's text as blocks (paragraphs, tagged items, preformatted lines), printed for the
//! terminal or written as a man page, and made from the Markdown of arbiter's documentation
//! pages (built into the binary), so that an installed user reads the words of `docs/` without
//! `docs/`.
//!
//! Of Markdown, the pages use (and this reads) paragraphs, `- ` items, fenced code blocks,
//! `inline code`, **bold** and links. A link to a page that a help topic prints becomes that
//! topic's command (`arbiter help columns`), one to another page its place in arbiter's source
//! (`docs/outcomes.md in arbiter's source`), one within a page its text.

use clap_mangen::roff::{Roff, bold, roman};

/// The pages a help topic prints, with the command that prints each.
const TOPIC_PAGES: [(&str, &str); 3] = [
    ("export-fields.md", "arbiter help columns"),
    ("select.md", "arbiter help where"),
    ("diagnostics.md", "arbiter help codes"),
];

/// The width the terminal text is wrapped to (the width of the pages' own lines).
const WIDTH: usize = 100;

/// A piece of a topic's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Block {
    /// Prose, wrapped to the width.
    Para(String),
    /// A term (a column and its type, a code and its severity) and what it means.
    Item(String, String),
    /// Lines kept as they are (a grammar, a table).
    Lines(Vec<String>),
}

/// `blocks` for the terminal: paragraphs wrapped, items' meanings indented under their terms,
/// a blank line between blocks but between consecutive items.
pub(crate) fn terminal(blocks: &[Block]) -> String {
    let mut out = String::new();
    for (i, block) in blocks.iter().enumerate() {
        let follows_item = i > 0 && matches!(blocks[i - 1], Block::Item(..));
        if i > 0 && !(follows_item && matches!(block, Block::Item(..))) {
            out.push('\n');
        }
        match block {
            // An item of a list hangs under its mark.
            Block::Para(text) if text.starts_with("- ") => wrap(text, "", "  ", &mut out),
            Block::Para(text) => wrap(text, "", "", &mut out),
            Block::Item(term, meaning) => {
                out.push_str("  ");
                out.push_str(term);
                out.push('\n');
                if !meaning.is_empty() {
                    wrap(meaning, "      ", "      ", &mut out);
                }
            }
            Block::Lines(lines) => {
                for line in lines {
                    out.push_str("  ");
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
    }
    out
}

/// `blocks` as the DESCRIPTION of a man page: paragraphs filled, items as tagged paragraphs,
/// lines unfilled.
pub(crate) fn roff(blocks: &[Block], roff: &mut Roff) {
    for block in blocks {
        match block {
            Block::Para(text) => {
                roff.control("PP", []);
                roff.text([roman(text.as_str())]);
            }
            Block::Item(term, meaning) => {
                roff.control("TP", []);
                roff.text([bold(term.as_str())]);
                roff.text([roman(meaning.as_str())]);
            }
            Block::Lines(lines) => {
                roff.control("PP", []);
                roff.control("nf", []);
                roff.control("RS", ["2"]);
                for line in lines {
                    roff.text([roman(line.as_str())]);
                }
                roff.control("RE", []);
                roff.control("fi", []);
            }
        }
    }
}

/// Appends `text` wrapped at [`WIDTH`], its first line after `first`, the others after `rest`.
fn wrap(text: &str, first: &str, rest: &str, out: &mut String) {
    let mut line = String::from(first);
    let mut indent = first.len();
    for word in text.split_whitespace() {
        if line.len() > indent && line.len() + 1 + word.len() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = String::from(rest);
            indent = rest.len();
        }
        if line.len() > indent {
            line.push(' ');
        }
        line.push_str(word);
    }
    if line.len() > indent {
        out.push_str(&line);
        out.push('\n');
    }
}

/// The section of the Markdown `page` under the heading that begins with `heading` (`## The
/// expression language`), without the heading, up to the next heading.
pub(crate) fn section<'a>(page: &'a str, heading: &str) -> &'a str {
    let start = if page.starts_with(heading) {
        0
    } else {
        match page.find(&format!("\n{heading}")) {
            Some(at) => at + 1,
            None => return "",
        }
    };
    let body = page[start..].split_once('\n').map_or("", |(_, rest)| rest);
    let end = body.find("\n#").map_or(body.len(), |at| at + 1);
    &body[..end]
}

/// The Markdown `text` as blocks: a paragraph per run of lines, one per `- ` item and one per
/// heading (its words), the lines of a fenced code block as they are; inline markup read as the
/// module says.
pub(crate) fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut para: Vec<&str> = Vec::new();
    let mut code: Option<Vec<String>> = None;
    let flush = |para: &mut Vec<&str>, blocks: &mut Vec<Block>| {
        if !para.is_empty() {
            blocks.push(Block::Para(inline(&para.join(" "))));
            para.clear();
        }
    };
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            flush(&mut para, &mut blocks);
            match code.take() {
                Some(lines) => blocks.push(Block::Lines(lines)),
                None => code = Some(Vec::new()),
            }
            continue;
        }
        if let Some(lines) = &mut code {
            lines.push(line.to_owned());
            continue;
        }
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with("- ") || trimmed.starts_with('#') {
            flush(&mut para, &mut blocks);
        }
        if let Some(heading) = trimmed.strip_prefix('#') {
            blocks.push(Block::Para(inline(heading.trim_start_matches('#').trim())));
        } else if !trimmed.is_empty() {
            para.push(trimmed);
        }
    }
    flush(&mut para, &mut blocks);
    blocks
}

/// One line's inline Markdown as plain text: code and bold marks dropped, links as the module
/// says.
pub(crate) fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let link = rest[open + 1..]
            .split_once("](")
            .and_then(|(label, after)| {
                let (target, after) = after.split_once(')')?;
                (!label.contains('[')).then_some((label, target, after))
            });
        let Some((label, target, after)) = link else {
            out.push_str(&rest[..=open]);
            rest = &rest[open + 1..];
            continue;
        };
        out.push_str(&rest[..open]);
        out.push_str(&link_text(label, target));
        rest = after;
    }
    out.push_str(rest);
    out.replace(['`'], "").replace("**", "")
}

/// What a link reads as: its label, and where the installed user finds its target.
fn link_text(label: &str, target: &str) -> String {
    if target.starts_with("http") {
        return format!("{label} ({target})");
    }
    let page = target.split('#').next().unwrap_or_default();
    if page.is_empty() {
        return label.to_owned();
    }
    let place = TOPIC_PAGES
        .iter()
        .find(|(name, _)| *name == page)
        .map_or_else(
            || format!("docs/{page} in arbiter's source"),
            |(_, command)| (*command).to_owned(),
        );
    if label == page {
        place
    } else {
        format!("{label} ({place})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_reads_as_plain_text() {
        assert_eq!(
            inline("see [outcomes.md](outcomes.md), the `valid` **field**"),
            "see docs/outcomes.md in arbiter's source, the valid field"
        );
        assert_eq!(
            inline("columns ([export-fields.md](export-fields.md)) and [Ranges](#ranges)"),
            "columns (arbiter help columns) and Ranges"
        );
        assert_eq!(inline("a [b] c (d)"), "a [b] c (d)");
        let page = "# T\n\nintro\n\n## One\n\nfirst\nline\n\n- item `x`\n  more\n\n```\ncode := a\n```\n\n### Sub\n\nsub\n\n## Two\n\nno";
        assert_eq!(
            blocks(section(page, "## One")),
            [
                Block::Para("first line".into()),
                Block::Para("- item x more".into()),
                Block::Lines(vec!["code := a".into()]),
            ]
        );
        assert_eq!(section(page, "## Two"), "\nno");
        assert_eq!(section(page, "# T"), "\nintro\n\n");
        assert_eq!(section(page, "## Three"), "");
        assert_eq!(
            blocks("## Head `x`\ntext"),
            [Block::Para("Head x".into()), Block::Para("text".into())]
        );
    }

    #[test]
    fn terminal_text_is_wrapped_and_indented() {
        let list = terminal(&[Block::Para(format!("- {}", "word ".repeat(30)))]);
        assert!(list.lines().nth(1).unwrap().starts_with("  word"), "{list}");
        let text = terminal(&[
            Block::Para("word ".repeat(30)),
            Block::Item("index  int64".into(), "the game's number".into()),
            Block::Item("file  string".into(), String::new()),
            Block::Lines(vec!["a := b".into()]),
        ]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0].len(), 99);
        assert_eq!(
            &lines[2..],
            [
                "",
                "  index  int64",
                "      the game's number",
                "  file  string",
                "",
                "  a := b"
            ]
        );
    }
}

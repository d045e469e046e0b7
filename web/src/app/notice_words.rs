//! A notice's words as the pages show them: each scenario a "did you mean “id”?" names is a
//! link to the same view of that scenario, so a misspelt link is one click from the right one.

use yew::prelude::*;

/// `text` with every “id” after "did you mean" that names a built-in scenario made a link to
/// `hash` (the link that could not be opened) with its `scenario=` part changed to that id.
pub fn notice_words(text: &str, hash: &str) -> Html {
    let Some(at) = text.find("did you mean ") else {
        return html! { { text } };
    };
    let (before, mut rest) = text.split_at(at);
    let mut parts: Vec<Html> = vec![html! { { before } }];
    while let Some(open) = rest.find('“') {
        let after_open = &rest[open + '“'.len_utf8()..];
        let Some(close) = after_open.find('”') else {
            break;
        };
        let id = &after_open[..close];
        let known = crate::catalogue::ids().any(|known| known == id);
        let upto = &rest[..open + '“'.len_utf8()];
        parts.push(html! { { upto } });
        if known {
            let href = crate::share::with_scenario(hash, id);
            parts.push(html! { <a href={href}>{ id }</a> });
        } else {
            parts.push(html! { { id } });
        }
        rest = &after_open[close..];
    }
    parts.push(html! { { rest } });
    parts.into_iter().collect::<Html>()
}

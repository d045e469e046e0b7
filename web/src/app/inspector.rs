//! The inspector panel: the core's view of every actor at this step, as tables; what the last
//! step changed is highlighted (colour and a mark, never colour alone).

use yew::prelude::*;

use super::state::AppState;

#[derive(Properties, PartialEq)]
pub struct InspectorProps {
    pub state: UseReducerHandle<AppState>,
}

#[component]
pub fn Inspector(props: &InspectorProps) -> Html {
    let Some(viewer) = &props.state.viewer else {
        return html! {};
    };
    let tables = viewer.borrow().inspector();
    html! {
        <details class="panel inspector" open={!super::dom::narrow()}>
            <summary><h2>{ "Inspector" }</h2></summary>
            <p class="hint">{ "Each actor as it stands after this step; ● marks what this step changed." }</p>
            { for tables.iter().map(|t| html! {
                <table>
                    <caption>{ t.title }</caption>
                    <thead><tr>{ for t.columns.iter().map(|c| html! { <th scope="col">{ *c }</th> }) }</tr></thead>
                    <tbody>
                        { for t.rows.iter().map(|row| html! {
                            <tr>
                                { for row.iter().enumerate().map(|(i, cell)| {
                                    let class = classes!(cell.changed.then_some("changed"));
                                    let mark = cell.changed.then(|| html! {
                                        <span class="mark" aria-label="changed at this step">{ "● " }</span>
                                    });
                                    if i == 0 {
                                        html! { <th scope="row" {class}>{ for mark }{ &cell.text }</th> }
                                    } else {
                                        html! { <td {class}>{ for mark }{ &cell.text }</td> }
                                    }
                                }) }
                            </tr>
                        }) }
                    </tbody>
                </table>
            }) }
        </details>
    }
}

// card_state.js of one card, asked with [name, selector].
// uses: card_state
(cardState, [name, selector]) => cardState(name, selector)

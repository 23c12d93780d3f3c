"""The bot's own consent links, for what the library does not know (an unbranded dialog, a
vendor newer than its rules): the known vendors' buttons, then any button by its words when the
box around it speaks of cookies or privacy. Looked for in a frame's document and inside every
open shadow root in it; declining first, accepting only where no way to decline is shown.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from playwright.sync_api import ElementHandle, Error, Frame

from webbot import answer
from webbot.page_scripts import page_script
from webbot.shown import shown

# Vendor, its dialog, its decline buttons, its accept buttons. Inside a vendor's dialog any
# button whose words decline counts too (Quantcast's DISAGREE stands after MORE OPTIONS, and
# both are "secondary").
VENDORS = (
    ("eu_cookie_compliance", "#sliding-popup, .eu-cookie-compliance-banner",
     ".decline-button", ".agree-button"),
    ("OneTrust", "#onetrust-banner-sdk, #onetrust-consent-sdk", "#onetrust-reject-all-handler",
     "#onetrust-accept-btn-handler"),
    ("Cookiebot", "#CybotCookiebotDialog", "#CybotCookiebotDialogBodyButtonDecline",
     "#CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll, "
     "#CybotCookiebotDialogBodyButtonAccept"),
    ("Didomi", "#didomi-host, #didomi-popup",
     "#didomi-notice-disagree-button, .didomi-continue-without-agreeing",
     "#didomi-notice-agree-button"),
    ("Quantcast", "#qc-cmp2-ui, .qc-cmp2-container", "#disagree-btn", "#accept-btn, "
     ".qc-cmp2-summary-buttons button[mode=primary]"),
    ("Usercentrics", "#usercentrics-root, #usercentrics-cmp-ui",
     "[data-testid=uc-deny-all-button], #deny", "[data-testid=uc-accept-all-button], #accept"),
    ("Google Funding Choices", ".fc-consent-root", ".fc-cta-do-not-consent",
     ".fc-cta-consent"),
    ("Sourcepoint", "#notice, .message-container", ".sp_choice_type_13, .sp_choice_type_REJECT_ALL",
     ".sp_choice_type_11"),
    ("TrustArc", "#truste-consent-track, #truste-consent-content",
     "#truste-consent-required", "#truste-consent-button"),
)
# A button's whole text (lower case, end punctuation dropped) must match.
DECLINE_WORDS = (
    r"^(reject|reject all|reject all cookies|reject cookies|reject and close|decline|"
    r"decline all|decline cookies|deny|deny all|refuse|refuse all|disagree|disagree and close|"
    r"i disagree|do not consent|don'?t consent|do not accept|don'?t accept|no,? thanks|"
    r"continue without (accepting|agreeing|consent|consenting)|"
    r"(use |allow |accept )?(only )?(strictly )?(necessary|essential|required|functional)"
    r"( cookies)?( only)?|(necessary|essential|required) only|"
    r"tout refuser|refuser|refuser tout|je refuse|refuser et fermer|continuer sans accepter|"
    r"(cookies )?(strictement )?n[ée]cessaires uniquement|seulement n[ée]cessaires|"
    r"alle ablehnen|ablehnen|ablehnen und schlie(ß|ss)en|nicht zustimmen|"
    r"nur (notwendige|essenzielle|erforderliche|technisch notwendige)( cookies)?"
    r"( akzeptieren| erlauben| zulassen)?|weiter ohne (zustimmung|einwilligung)|verweigern|"
    r"rechazar|rechazar todo|rechazar todas|rechazar cookies|no acepto|"
    r"(solo|s[óo]lo) (las )?(necesarias|esenciales)|continuar sin aceptar|"
    r"rifiuta|rifiuta tutto|rifiuta tutti|non accetto|(solo|usa solo) (i )?(cookie )?necessari|"
    r"continua senza accettare|"
    r"weigeren|alles weigeren|alle weigeren|afwijzen|alles afwijzen|alleen noodzakelijk(e)?"
    r"( cookies)?|"
    r"rejeitar|rejeitar tudo|rejeitar todos|recusar|odrzu[cć]( wszystkie)?|odm[oó]w|"
    r"avvisa|avvisa alla|neka|afvis|afvis alle|hylk[aä][aä]( kaikki)?)$")
ACCEPT_WORDS = (
    r"^(accept|accept all|accept all cookies|accept cookies|accept and close|accept & close|"
    r"allow|allow all|allow all cookies|allow cookies|agree|i agree|agree and close|"
    r"agree & close|consent|i consent|ok|okay|ok,? i agree|got it|i understand|understood|"
    r"tout accepter|accepter|accepter et fermer|accepter et continuer|j'accepte|"
    r"alle akzeptieren|akzeptieren|zustimmen|alle zulassen|einverstanden|"
    r"akzeptieren und schlie(ß|ss)en|alle cookies akzeptieren|"
    r"aceptar|aceptar todo|aceptar todas|aceptar cookies|acepto|de acuerdo|"
    r"accetta|accetta tutto|accetta tutti|accetto|"
    r"accepteren|alles accepteren|alle cookies accepteren|akkoord|"
    r"aceitar|aceitar tudo|aceitar todos|akceptuj[eę]?( wszystkie)?|zgadzam si[eę]|"
    r"godk[äa]nn( alla)?|accepter alle|hyv[aä]ksy( kaikki)?)$")
# The box around a consent button speaks of one of these.
CONSENT_CONTEXT = (r"cookie|consent|privacy|datenschutz|einwilligung|vie priv|donn[ée]es|"
                   r"confidentialit|privacidad|riservatezza|privacy|toestemming|privacidade|"
                   r"prywatno|integritet|tracking|partners|partenaires|socios|partner")



@dataclass(frozen=True)
class Button:
    """A consent button showing in a frame."""

    element: ElementHandle
    vendor: str
    answer: str  # declined | accepted
    label: str

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.vendor, self.answer, self.label)


def consent_buttons(frame: Frame) -> list[Button]:
    """The consent buttons showing in `frame` (its document and open shadow roots), the ways
    to decline first; empty when the frame went away meanwhile."""
    looked_for = [VENDORS, DECLINE_WORDS, ACCEPT_WORDS, CONSENT_CONTEXT]
    try:
        # Most looks find none: counted in one round trip, the buttons taken only when some
        # show (whatever the page answers but a plain 0 is looked at in full).
        count = answer.evaluate(frame, _counted(), looked_for)
        if count == 0 and type(count) is int:
            return []
        found = answer.evaluate_handle(frame, page_script("consent_buttons"), looked_for)
        rows = [answer.properties(row) for row in answer.properties(found).values()]
        buttons = []
        for row in rows:
            element = row["0"].as_element()
            if element is not None:
                vendor, kind, label = (shown(answer.value(row[k])) for k in ("1", "2", "3"))
                buttons.append(Button(element, vendor, kind, label))
        answer.dispose(found)
        return buttons
    except Error:
        return []


@functools.cache
def _counted() -> str:
    return f"(...args) => ({page_script('consent_buttons')})(...args).length"

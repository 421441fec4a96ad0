"""Look at an email as a mail program shows it: ``python3 scripts/eml_view.py MAIL.eml [...]`` writes ``MAIL.html``
(the message's html part, its ``cid:`` pictures made ``data:`` URLs, a few of its headers at the top) beside each file, and
with ``--png`` a screenshot ``MAIL.png`` of it in Debian's chromium (``KEIMA_CHROMIUM``), 420 px wide as a phone's
mail program, through Playwright. The emails are keima's (docs/correspondence.md, *Email*)."""

from __future__ import annotations

import base64
import email
import email.policy
import os
import re
import sys
from email.message import EmailMessage
from html import escape
from pathlib import Path


def to_html(raw: bytes) -> str:
    """The page of the email ``raw``: a few headers, then its html part with its pictures inline (or its text
    part, preformatted, when it has no html part)."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    head = "".join(f"<div><b>{escape(name)}:</b> {escape(str(msg[name] or ''))}</div>"
                   for name in ("From", "To", "Subject", "List-Unsubscribe", "List-Unsubscribe-Post"))
    part = msg.get_body(preferencelist=("html", "plain"))
    if part is None:
        return head
    body = part.get_content()
    if part.get_content_type() == "text/plain":
        return f"{head}<pre style='white-space:pre-wrap'>{escape(body)}</pre>"
    for att in msg.walk():
        cid = att.get("Content-ID")
        if cid:
            data = base64.b64encode(att.get_payload(decode=True) or b"").decode()
            body = body.replace(f"cid:{cid.strip('<>')}", f"data:{att.get_content_type()};base64,{data}")
    shown = f"<div style='font:12px monospace;background:#eee;padding:6px;overflow-wrap:anywhere'>{head}</div>"
    at = re.search(r"<body[^>]*>", body)
    return shown + body if at is None else body[:at.end()] + shown + body[at.end():]


def main(argv: list[str]) -> None:
    files = [Path(a) for a in argv if not a.startswith("--")]
    pages = []
    for f in files:
        page = f.with_suffix(".html")
        page.write_text(to_html(f.read_bytes()))
        pages.append(page)
    if "--png" not in argv:
        return
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=os.environ.get("KEIMA_CHROMIUM", "/usr/bin/chromium"),
                                     args=["--no-sandbox", "--disable-gpu"], headless=True)
        tab = browser.new_page(viewport={"width": 420, "height": 900})
        for page in pages:
            tab.goto(page.resolve().as_uri())
            tab.screenshot(path=str(page.with_suffix(".png")), full_page=True)
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1:])

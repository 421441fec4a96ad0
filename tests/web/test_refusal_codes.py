"""Every refusal code the server answers (``keima.server.errors.STATUS``) has the page's own words in English and
in French (``errors`` of web/src/i18n/en.js and fr.js), so that no page shows the server's English sentence where
it reads French."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from keima.server.errors import STATUS

WEB = Path(__file__).resolve().parents[2] / "web"
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_every_server_code_has_words_in_both_languages() -> None:
    assert NODE is not None
    script = (
        'import { MESSAGES } from "./src/i18n.js";'
        "console.log(JSON.stringify({en: Object.keys(MESSAGES.en.errors), fr: Object.keys(MESSAGES.fr.errors)}));"
    )
    done = subprocess.run([NODE, "--input-type=module", "-e", script], cwd=WEB, capture_output=True, text=True,
                          timeout=60, check=True)
    keys = json.loads(done.stdout)
    for language in ("en", "fr"):
        missing = sorted(set(STATUS) - set(keys[language]))
        assert not missing, (language, missing)

"""The words for a Gatehouse error reason, to show the person using the application.

They are the catalog the hosted pages show (src/i18n/catalogs/reasons), so an application's own
form and Gatehouse's pages say the same thing in the same language, as the TypeScript SDK's
errorMessage does. words/ is a copy that scripts/generate-sdks.mjs writes and
test/sdks/sdk-words.test.ts holds equal to the source. The catalog test keeps every reason's
words free of ICU arguments, so they are shown as written.
"""

import functools
import json
import re
from importlib import resources

from gatehouse_sdk.errors import error_reason

FALLBACK_LANGUAGE = "en"

# The shape of a well-formed BCP 47 tag (a language subtag, then subtags of letters and digits):
# anything else, such as a POSIX "fr_CA.UTF-8", reads English, as it does in the TypeScript SDK.
_TAG = re.compile(r"^(?:[A-Za-z]{2,3}|[A-Za-z]{5,8})(?:-[A-Za-z0-9]{1,8})*$")


@functools.lru_cache(maxsize=None)
def _catalogs():
    """Every shipped language's words, by language: read once, on first use."""
    folder = resources.files("gatehouse_sdk") / "words"
    return {
        entry.name[: -len(".json")]: json.loads(entry.read_text(encoding="utf-8"))
        for entry in folder.iterdir()
        if entry.name.endswith(".json")
    }


def _language_of(tag, shipped):
    """The shipped language a BCP 47 tag asks for ("fr-CA" -> "fr"), or English."""
    tag = tag.strip() if isinstance(tag, str) else ""
    if len(tag) > 35 or not _TAG.match(tag):
        return FALLBACK_LANGUAGE
    language = tag.split("-")[0].lower()
    return language if language in shipped else FALLBACK_LANGUAGE


def error_message(error, language="en"):
    """What a Gatehouse error means to the person using the application, or None.

    `language` is a BCP 47 tag: "fr-CA" reads French, a language Gatehouse does not ship reads
    English, and so does a reason the language has no words for. None for an error without a
    Gatehouse reason (a network failure, a proxy's page) and for a reason newer than this SDK's
    catalog: branch on error_reason, show these words.
    """
    reason = error_reason(error)
    if not reason:
        return None
    key = "reason." + reason
    catalogs = _catalogs()
    words = catalogs[_language_of(language, catalogs)]
    if key in words:
        return words[key]
    return catalogs[FALLBACK_LANGUAGE].get(key)

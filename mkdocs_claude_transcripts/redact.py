"""Keep secrets out of the site: API keys, tokens, private keys and passwords found
in transcript text are replaced by a marker naming their kind, such as
``[REDACTED:github-token]``, and home folders are shortened to ``~``.

A pattern is tried on a text only when a word it cannot match without is in the
text, so most texts are only searched for a few words. The counts of what was
replaced are kept per kind; the values never are.
"""

from __future__ import annotations

import functools
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .render.text import ANSI
from .transcript.jsonstrings import mapped

if TYPE_CHECKING:
    from .memo import Memo

# What a value given to a name is made of (``_assigned``): unquoted, it ends where code
# or a list goes on; quoted, at the quote.
_BARE = r"[^\s'\"<>,;&()\[\]{}$`\\|?]"
_QUOTED = r"[^\s'\"\\]"
_NAME = r"(?:[a-z_][a-z0-9_]{0,63}|[A-Z_][A-Z0-9_]{0,63})"
_DOTTED = rf"{_NAME}(?:\.{_NAME})+"


def _assigned(first: str, name: str, bare: str, quoted: str, least: int) -> str:
    """A pattern for the value given to a name that ends in ``name`` (whose first
    character is one of ``first``, a lookahead for speed), after `=`, `:`, `:=` or
    `=>` on the same line: ``least`` characters or more of ``quoted`` between quotes,
    or of ``bare`` without, among them a letter and a digit. It is not a reference
    (`$X`, `${X:-x}`, `%X%`, `<X>`, `{{ x }}`), nor, unquoted, a dotted name such as
    `process.env.X2` (of names in lower or in upper case: a token's parts mix them) or
    a call. Each test reads a bounded stretch, and the value is then taken whole: on a
    long run of such characters, a test that read to its end from each name would take
    time growing with its square."""

    def holds_letter_and_digit(chars: str) -> str:
        return rf"(?={chars}{{0,256}}?[0-9])(?={chars}{{0,256}}?[A-Za-z])"

    in_quotes = rf"(?<=[\"']){holds_letter_and_digit(quoted)}{quoted}{{{least},}}(?=[\"'])"
    alone = (
        rf"(?<![\"'])(?!{_DOTTED}(?!{bare}))(?![A-Za-z_][\w.]{{0,100}}(?:[(\[]|\?\.))"
        rf"{holds_letter_and_digit(bare)}{bare}{{{least},}}"
    )
    return rf"{first}{name}(?![A-Za-z0-9_])[\"']?[ \t]*(?::=|=>|=|:)[ \t]*[\"']?(?P<secret>(?![=$%{{<\[(])(?:{in_quotes}|{alone}))"


# What a password is made of, unquoted; and what code gives a password, which is not
# one: None and its kin, another name for it (password=key_password), or a field of an
# object (self.password, options.proxy.password, parsed.auth_decoded).
_PASSWORD = r"[^\s;&'\"<>,()\[\]{}$`]"
_NOT_A_PASSWORD = (
    r"(?:none|null|nil|true|false|undefined|(?-i:(?:[a-z][a-z0-9]*_)*(?:password|passwd|pwd)"
    r"|(?:self|this|cls)(?:\.[A-Za-z_]\w*)+|(?:[a-z_][a-z0-9_]*\.)+(?=[a-z_]*(?:pass|pwd|auth))[a-z0-9_]*"
    # (Terraform's references: var.x, local.x, data.type.name.x, type_of.name.attribute)
    r"|(?:var|local|module|data|each)(?:\.[A-Za-z_][\w-]*)+|[a-z][a-z0-9]*_[a-z0-9_]+(?:\.[A-Za-z_][\w-]*){2,}))"
    rf"(?!{_PASSWORD})"
)


# kind -> pattern. Where a pattern has a group named "secret", only that part is
# replaced (the password in a URL, the token after "Bearer").
PATTERNS: dict[str, str] = {
    # (A block runs to its END line, not past the next BEGIN: each BEGIN that nothing ends
    # would otherwise read the rest of the text. Without one, it runs over the lines of
    # the key's letters, each maybe after a line's number, a file's name or a diff's
    # mark, as a file read in part, grep or git show give them.)
    "private-key": (
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:(?:(?!-----BEGIN )[\s\S])*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
        r"|(?:(?:\r?\n|\\n)(?:[ \t]*[0-9]+(?:→|\t|:)|[^\n]{0,100}?[-:][0-9]+[-:]|[-+ ]?)[A-Za-z0-9+/]+={0,2}[ \t]*(?=\r?\n|\\n|$)"
        r"|(?:\r?\n|\\n)[^\n]{0,100}?(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{16,}={0,2}[ \t]*(?=\r?\n|\\n|$))*)"
    ),
    "anthropic-key": r"\bsk-ant-[A-Za-z0-9_-]{20,}",
    # (A letter and a digit among its first 256 characters: looking further, each "sk-"
    # of a long run of such characters would read the whole run.)
    "openai-key": r"\bsk-(?:proj-|svcacct-|admin-|None-)?(?=[A-Za-z0-9_-]{0,256}?[0-9])(?=[A-Za-z0-9_-]{0,256}?[A-Za-z])[A-Za-z0-9_-]{20,}",
    "github-token": r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
    "gitlab-token": r"\bgl(?:pat|dt|rt|cbt|ptt|ft)-[A-Za-z0-9_-]{20,}",
    "aws-access-key": r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])",  # (in a name too: KEY_AKIA..._OLD)
    # (Or beside its key's id, as the console's file of credentials has them: id,secret.)
    "aws-secret-key": (
        r"(?i)(?:aws_secret_access_key\s*[=:]\s*[\"']?|\[REDACTED:aws-access-key\][ \t,;|:\"']+(?=[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])))"
        r"(?P<secret>[A-Za-z0-9/+=]{40})"
    ),
    "slack-token": r"\b(?:xox(?:[abposr]|e(?:\.xox[bp])?)-[A-Za-z0-9-]{10,}|xapp-[0-9]-[A-Za-z0-9-]{10,})",
    "slack-webhook": r"https://hooks\.slack\.com/services/[A-Za-z0-9/]{20,}",
    "google-api-key": r"\bAIza[0-9A-Za-z_-]{35}",
    "stripe-key": r"\b(?:(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{10,}|whsec_[0-9A-Za-z]{20,})",
    "npm-token": r"\bnpm_[A-Za-z0-9]{36}\b",
    "huggingface-token": r"\bhf_[A-Za-z0-9]{34,}\b",
    "sendgrid-key": r"\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b",
    "digitalocean-token": r"\bdo[por]_v1_[a-f0-9]{64}\b",
    "azure-storage-key": r"(?i)\bAccountKey=(?P<secret>[A-Za-z0-9+/]{40,}={0,2})",
    # Tokens of other services, known by their prefix.
    "google-oauth": r"(?:\bya29\.[0-9A-Za-z_-]{20,}|\bGOCSPX-[0-9A-Za-z_-]{20,}|(?<![0-9A-Za-z_/-])1//0[0-9A-Za-z_-]{40,})",
    "pypi-token": r"\bpypi-AgE[0-9A-Za-z_-]{50,}",
    "docker-token": r"\bdckr_(?:pat|oat)_[0-9A-Za-z_-]{20,}",
    "shopify-token": r"\bshp(?:at|ss|ca|pa)_[0-9a-fA-F]{32}\b",
    "telegram-bot-token": r"(?<![0-9])[0-9]{8,10}:AA[0-9A-Za-z_-]{33}(?![0-9A-Za-z_-])",  # (in its API's URLs too: /bot1234...)
    "discord-webhook": r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]+/[0-9A-Za-z_-]+",
    # Groq, Perplexity, xAI, Replicate, LangSmith, Pinecone, Tavily
    "ai-provider-key": (
        r"\b(?:gsk_[0-9A-Za-z]{40,}|pplx-[0-9A-Za-z]{40,}|xai-[0-9A-Za-z]{40,}|r8_[0-9A-Za-z]{30,}"
        r"|lsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}|pcsk_[0-9A-Za-z_]{40,}|tvly-(?:dev-)?[0-9A-Za-z]{20,}|sk_[0-9a-f]{48}\b)"
    ),
    # Tailscale, Mapbox's secret tokens, Terraform Cloud, 1Password's service accounts,
    # PlanetScale, Netlify, Buildkite, Pulumi, Mailchimp, Render, Contentful,
    # Alibaba Cloud's access key ids.
    "service-token": (
        r"\b(?:tskey-(?:[a-z]+-)?[0-9A-Za-z]{8,}-[0-9A-Za-z]{16,}|sk\.eyJ[0-9A-Za-z_-]{20,}\.[0-9A-Za-z_-]{10,}"
        r"|[0-9A-Za-z]{14}\.atlasv1\.[0-9A-Za-z_-]{60,}|ops_eyJ[0-9A-Za-z_-]{50,}|pscale_(?:tkn|pw|oauth)_[0-9A-Za-z_.-]{32,}"
        r"|nfp_[0-9A-Za-z]{36}|bkua_[0-9a-f]{40}|pul-[0-9a-f]{40}|[0-9a-f]{32}-us[0-9]{1,2}"
        r"|rnd_[0-9A-Za-z]{20,}|CFPAT-[0-9A-Za-z_-]{43}|LTAI[0-9A-Za-z]{20})\b"
    ),
    "linear-key": r"\blin_(?:api_[0-9A-Za-z]{40}|oauth_[0-9a-f]{64})\b",
    "notion-token": r"\b(?:ntn_[0-9A-Za-z]{40,}|secret_[0-9A-Za-z]{43}\b)",
    "databricks-token": r"\bdapi[0-9a-f]{32}(?:-[0-9]+)?\b",
    "mailgun-key": r"\bkey-[0-9a-f]{32}\b",
    "age-secret-key": r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b",
    "figma-token": r"\bfigd_[0-9A-Za-z_-]{30,}",
    "grafana-token": r"\bgl(?:c|sa)_[0-9A-Za-z+/=_-]{30,}",
    "postman-key": r"\bPMAK-[0-9a-f]{24}-[0-9a-f]{34}\b",
    "newrelic-key": r"\bNRAK-[0-9A-Z]{27}\b",
    "atlassian-token": r"\bATATT3[0-9A-Za-z_=-]{50,}",
    # (A service token names its config: dp.st.dev.XXXX.)
    "doppler-token": r"\bdp\.(?:st|pt|ct|sa|scim|audit)\.(?:[0-9A-Za-z_-]{1,40}\.)?[0-9A-Za-z_-]{40,}",
    "sentry-token": r"\bsntry[su]_[0-9A-Za-z+/=_-]{30,}",
    "supabase-key": r"\b(?:sbp_[0-9a-f]{40}\b|sb_secret_[0-9A-Za-z_-]{20,})",
    "vault-token": r"\bhv[sbr]\.[0-9A-Za-z_-]{24,}",
    "heroku-key": r"\bHRKU-[0-9A-Za-z_-]{20,}",
    "rubygems-key": r"\brubygems_[0-9a-f]{48}\b",
    "flyio-token": r"\bfm[12]_[0-9A-Za-z+/=_-]{40,}",
    # (Each after its prefix, which a text is searched for first: "pat" and "re_" are
    # in many words, and a pattern that begins with a word's boundary is tried at
    # every character.)
    "resend-key": r"re_(?<![0-9A-Za-z_]re_)[0-9A-Za-z]{8}_[0-9A-Za-z]{24}\b",
    "airtable-token": r"pat(?<![0-9A-Za-z_]pat)[0-9A-Za-z]{14}\.[0-9a-f]{64}\b",
    "dropbox-token": r"sl\.(?<![0-9A-Za-z_]sl\.)[0-9A-Za-z_=-]{130,}",
    "square-token": r"\bsq0(?:csp|atp)-[0-9A-Za-z_-]{22,43}(?![0-9A-Za-z_-])",
    # (Where a run of such characters begins: each "eyJ" inside a long run would read
    # the rest of it, for want of a dot.)
    "jwt": r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
    "bearer-token": r"(?i)\bbearer\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)",
    # Credentials are base64: a word such as "Authentication" is not.
    "basic-auth": r"\b[Aa]uthorization:\s*[Bb]asic\s+(?P<secret>(?=[A-Za-z0-9+/]+?[A-Z0-9+/])[A-Za-z0-9+/]{8,}={0,2})",
    # "Authorization: Token ...", "Authorization: SSWS ...", a bare key, in a header or a
    # dictionary of them; with a digit (not a word such as "Role-based-access-control").
    # Basic and Bearer have kinds of their own; AWS's signature is a signed URL's.
    "authorization-header": (
        r"(?i)\bauthorization[\"']?[ \t]*:[ \t]*[\"']?(?!basic\b|bearer\b|aws4-hmac-sha256\b)(?:[A-Za-z-]+[ \t]+)?"
        r"(?P<secret>(?=[A-Za-z0-9._~+/=-]{0,256}?[0-9])[A-Za-z0-9._~+/=-]{16,})"
    ),
    # The signature of a signed URL (S3, Google Cloud Storage, Azure SAS), which opens it
    # to anyone, or of an AWS request's Authorization header.
    "signed-url": r"(?i)(?<![\w-])(?:sig|signature|x-amz-signature|x-goog-signature)=(?P<secret>[A-Za-z0-9%+/=_-]{16,})",
    # The cookies sent or set in an HTTP header, a session among them.
    "cookie": r"(?i)\b(?:set-)?cookie:[ \t]*(?P<secret>(?=[^\n]{8})[\w.-]+=[^\s;'\"]*(?:;[ \t]*[\w.-]+=[^\s;'\"]*)*)",
    # A registry's credentials, base64 of "user:password" (Docker's config.json, .npmrc's
    # _auth, a Kubernetes secret's .dockerconfigjson), and the key of a kubeconfig.
    "registry-auth": (
        r"(?i)(?<![\w.-])[\"']?(?:_?auth|\.dockerconfigjson)[\"']?[ \t]*[:=][ \t]*[\"']?"
        r"(?P<secret>(?=[A-Za-z0-9+/]{0,256}?[0-9+/=])[A-Za-z0-9+/]{12,}={0,2})(?![A-Za-z0-9+/=])"
    ),
    "kube-client-key": r"(?i)\bclient-key-data:[ \t]*[\"']?(?P<secret>[A-Za-z0-9+/]{16,}={0,2})",
    # A password given on a command line (curl -u user:password, --password X, mysql -pX,
    # sshpass -p X, redis-cli -a X, openssl's pass:X, keytool -storepass X) or in a
    # .netrc (machine x login y password X). The option is looked for in the 256
    # characters after the command's name: to a line's end, each name in a long line
    # (a minified file) would read the rest of it.
    "command-password": (
        r"(?:(?:(?<![\w-])(?:-u|--user)[ \t]+|\bcurl\b[^\n]{0,256}?[ \t]-u)[\"']?[^\s:\"'/@]+:"
        r"|(?i:(?<![\w-])--pass(?:word|wd)?(?:[ \t]+|=)[\"']?(?![-$])"
        r"|\b(?:mysql(?:dump|admin)?|mariadb)\b[^\n]{0,256}?[ \t](?-i:-p)[\"']?(?![0-9]+:[0-9])"
        r"|\b(?:sshpass\b[^\n]{0,256}?[ \t]-p|redis-cli\b[^\n]{0,256}?[ \t]-a)[ \t]*[\"']?(?![-$])"
        r"|(?<![\w-])-pass(?:in|out)[ \t]+[\"']?pass:|(?<![\w-])-(?:store|key)pass[ \t]+[\"']?(?![-$])"
        r"|\bmachine[ \t]+\S+[ \t]+login[ \t]+\S+[ \t]+password[ \t]+))"
        r"(?P<secret>[^\s\"'@]{3,})"
    ),
    # (Typed by hand, a password may hold "@" and "/": it runs to the last "@" followed
    # by a host, but not from a port, http://localhost:5173/@vite/client.)
    "url-password": (
        r"\b[A-Za-z][A-Za-z0-9+.-]{0,31}://[^\s:/@'\"<>]*:(?P<secret>(?![0-9]+(?:/|$))[^\s'\"<>]{1,256})"
        r"@(?=[A-Za-z0-9][A-Za-z0-9._-]*(?::[0-9]+)?(?:[/?#,;)'\"<>\s]|$))"
    ),
    # key=value pairs of connection strings and environment files (DB_PASSWORD=...), but
    # not a function call (password=getpass()), a folder (PWD=/home/...) or, unquoted,
    # what code gives a password (see _NOT_A_PASSWORD); and "password": "..." in JSON or
    # YAML.
    "password": (
        r"(?i)(?:(?:\b|_|(?<=[A-Z])(?=(?-i:PASSWORD|PASSWD)))(?:password|passwd|pwd)[ \t]*=[ \t]*[\"']?"
        r"|(?<=[a-z0-9])(?-i:Password|Passwd)[ \t]*=[ \t]*[\"'])(?P<secret>(?![A-Za-z_][\w.]*\()(?![/~])"
        r"(?:(?!\$[{(]|\$\w+[\"'])(?:(?<=\")[^\"\n]{3,}(?=\")|(?<=')[^'\n]{3,}(?='))"  # (between quotes, to the closing one; not a reference)
        rf"|(?:(?<=[\"'])|(?!{_NOT_A_PASSWORD})){_PASSWORD}{{3,}}))"
    ),
    # (Or, between quotes, a name that ends with such a word: "db_password", "apiKey",
    # "GITHUB_TOKEN", as JSON has them.)
    "password-field": (
        r"(?i)(?:[\"']?\b(?:password|passwd|secret|api_?key|access_?token|auth_?token)[\"']?"
        r"|[\"'][\w.-]{0,64}?(?:password|passwd|passphrase|secret|token|api_?key|auth_?key|private_?key|access_?key|credentials?)[\"'])"
        # (A value to its closing quote: in JSON, "name": "..." or "name":"...", spaces too;
        # otherwise, say a message in code, password: "is required", without.)
        r"[ \t]*:[ \t]*[\"'](?P<secret>(?:(?<=\": \")|(?<=\":\"))(?:[^\"\\\n]|\\.){3,}(?=\")"
        r"|(?<=\")(?:[^\"\\\s]|\\.){3,}(?=\")|(?<=')[^'\s]{3,}(?='))"
    ),
    # The value given to a name that says it holds a secret, in environment files,
    # configuration and code (GITHUB_TOKEN=..., client_secret: ..., "apiKey": "..."):
    # letters and digits, not a reference (${{ secrets.X }}, process.env.TOKEN) or a call.
    "assigned-secret": _assigned(
        "(?=[SsTtPpCcAaEeMm_.-])",
        r"(?i:secret|token|passw(?:or)?d|[_.-]pass|credentials?|(?:api|auth|secret|private|access|client|signing|encryption|master)[_.-]?key)"
        r"(?i:[_-]base)?",
        _BARE,
        _QUOTED,
        8,
    ),
    # A name ending in key (STRIPE_KEY=..., encryptionKey: ...) holds many other things
    # (a cache's key, a sort key): only a long value of a token's letters is taken.
    "assigned-key": _assigned("(?=[_.K-])", r"(?:(?i:[_.-]key)|(?<=[a-z0-9])Key)", "[A-Za-z0-9+/=-]", "[A-Za-z0-9+/=-]", 20),
}

# Names of fields of JSON data (a tool's input, a result's data) whose value is a
# secret, whatever it looks like: the name's letters and digits, in lower case, end
# with one of these ("password", "DB_PASSWORD", "apiKey", "GITHUB_TOKEN"), or it ends
# in "pass" after a "_", "-" or "." ("db_pass").
_SECRET_NAMES = (
    "password", "passwd", "passphrase", "secret", "token", "apikey", "authkey", "privatekey", "accesskey",
    "secretkey", "signingkey", "encryptionkey", "masterkey", "credential", "credentials", "authorization", "cookie",
)  # fmt: skip
_NOT_NAME = re.compile(r"[^a-z0-9]")
_PASS_NAME = re.compile(r"(?:^|[_.-])pass$", re.IGNORECASE)
# A value that names a secret kept elsewhere rather than being one: a reference
# (${X}, $X or $x alone, {{ x }}, %X%, <your token>), stars, or a value already
# replaced. ($Xy9... is a password that starts with a dollar.)
_REFERENCE = re.compile(r"\$\{[A-Za-z_]|\$(?:[A-Z_][A-Z0-9_]*|[a-z_][a-z0-9_]*)$|\{\{|%[A-Za-z_]+%|<[^<>]*>$|\*+$|\[REDACTED")
_FIELD = "secret-field"


def _code_after(match: re.Match[str], value: str) -> bool:
    """A value that code goes on from (``os.environ["X"]``, ``form.get(...)``), or, not
    quoted, a constant's name (``password = DB_PASSWORD``)."""
    after = match.string[match.end() : match.end() + 1]
    quoted = match.string[match.start("secret") - 1 : match.start("secret")] in ("'", '"')
    return after in ("[", "(") or (not quoted and _CONSTANT.fullmatch(value) is not None)


def _wordy(match: re.Match[str], value: str) -> bool:
    """A value made of words (``app-theme-preference-v2``, ``images/products/item-1234``):
    a name, a path or a setting's value, not a token's letters."""
    return sum(1 for part in _PARTS.split(value) if len(part) >= 3 and part.isalpha()) >= 2


# A token that only says where a list goes on, as APIs give it with a page of results
# (AWS's NextToken, Google's nextPageToken, a sync's or a continuation's token): it
# opens nothing. Its name's letters and digits, in lower case, end so.
_PAGE_TOKEN = re.compile(r"(?:next|prev|previous|page|pagination|continuation|sync|resumption)token\Z")
_NAME_BEFORE = re.compile(r"([\w.-]+)[\"']?[ \t]*(?::=|=>|=|:)[ \t]*[\"']?\Z")


def _page_token(match: re.Match[str], value: str) -> bool:
    """Whether the name the value is given to is a page's token (``_PAGE_TOKEN``)."""
    name = _NAME_BEFORE.search(match.string[max(0, match.start() - 64) : match.start("secret")])
    return name is not None and _PAGE_TOKEN.search(_NOT_NAME.sub("", name.group(1).lower())) is not None


# Values a kind's pattern finds that are not secrets (where its pattern alone would
# have to be much longer): given the match and the value it would replace.
_NOT_SECRET: dict[str, Callable[[re.Match[str], str], bool]] = {
    "password": _code_after,
    # (A BEGIN line alone, or BEGIN and END lines with words between on one line: code
    # that reads a key, pem.startswith("-----BEGIN RSA PRIVATE KEY-----"), or prose.)
    "private-key": lambda match, value: not _KEY_LINES.search(value) and not _KEY_LETTERS.search(value),
    "password-field": lambda match, value: _VERSION.fullmatch(value) is not None or _page_token(match, value),  # "jsonwebtoken": "^9.0.2"
    "assigned-secret": _page_token,  # NextToken: AAEAAUdj...
    "assigned-key": _wordy,  # STORAGE_KEY = 'app-theme-v2', a cache's or an object's key
    "command-password": lambda match, value: (
        _IDS.fullmatch(match.group()) is not None or _IDS.fullmatch(value) is not None or _VARIABLE.fullmatch(value) is not None
    ),  # (curl -u "$USER:$TOKEN")
    "url-password": lambda match, value: _VARIABLE.fullmatch(value) is not None,  # https://app:${DB_PASSWORD}@db/app
    "bearer-token": lambda match, value: not any(char.isdigit() for char in value),  # "Bearer authentication"
    "signed-url": lambda match, value: not any(char.isdigit() for char in value),  # signature=request_signature
    "registry-auth": lambda match, value: _PATH.fullmatch(value) is not None,  # auth: /api/v1/auth/login
}
_KEY_LINES = re.compile(r"\n|\\n")
_KEY_LETTERS = re.compile(r"[A-Za-z0-9+/]{16,}")
_CONSTANT = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z0-9_]*(?:PASSWORD|PASSWD|PWD|SECRET)")
_PARTS = re.compile(r"[-_./]")
_VERSION = re.compile(r"[\^~<>=v ]*[0-9]+(?:\.[0-9x*]+)+(?:[-+.][0-9A-Za-z.]+)?")
# A user and a group by number (docker run -u 1000:1000), a port's mapping (-p3306:3306).
_IDS = re.compile(r"(?:.*?(?:-u|--user)[ \t]*[\"']?)?[0-9]+(?::[0-9]+)+")
_PATH = re.compile(r"/?[a-z0-9-]+(?:/[a-z0-9-]+)+/?")
# A variable of the shell, or of a template, whose value is given elsewhere: $TOKEN,
# ${TOKEN}, $(TOKEN) (a Makefile), %TOKEN% (Windows), {{ token }}; not one with a
# default written in (${TOKEN:-x9...}), nor a dollar before other letters ($k9t9C...).
_VARIABLE = re.compile(
    r"\$(?:[A-Z_][A-Z0-9_]*|[a-z_][a-z0-9_]*)|\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$\([A-Za-z_][A-Za-z0-9_]*\)"
    r"|%[A-Za-z_][A-Za-z0-9_]*%|\{\{[ \t]*[\w.]+[ \t]*\}\}"
)


@functools.lru_cache(maxsize=1024)
def secret_name(name: str) -> bool:
    """Whether a field of this name holds a secret (``_SECRET_NAMES``)."""
    letters = _NOT_NAME.sub("", name.lower())
    return (letters.endswith(_SECRET_NAMES) and _PAGE_TOKEN.search(letters) is None) or _PASS_NAME.search(name) is not None


# A home folder, and Windows' as Git Bash, WSL, Cygwin or forward slashes write it
# (/c/Users/x/, /mnt/c/Users/x/, /cygdrive/c/Users/x/, C:/Users/x/), drive and all; a
# user's name in any alphabet. The folder is found first, then what of its path comes
# right before it (``_home_start``): a pattern holding both, tried at every place of a
# text, took 45 times as long.
_HOME = re.compile(r"/(?:Users|home)/(?P<user>[\w.-]+)(?P<rest>[/\\]|\b)")
_DRIVE = re.compile(r"(?:[A-Za-z]:|/mnt/[A-Za-z]|/cygdrive/[A-Za-z]|/[A-Za-z])\Z")  # before /Users/ alone
# Windows' own (C:\Users\x\, c:\users\x\, in JSON C:\\Users\\x\\; a name of two
# words before a backslash), and WSL's home folders as Windows reaches them
# (\\wsl.localhost\Ubuntu\home\x\).
_WINDOWS_HOME = re.compile(
    r"(?i:[a-z]:\\{1,2}users|\\{2,4}wsl(?:\.localhost|\$)\\{1,2}[^\\\s]+\\{1,2}home)\\{1,2}"
    r"(?P<user>[\w.-]+(?: [\w.-]+(?=\\))?)(?P<rest>[/\\]|\b)"
)
_IN_A_PATH = re.compile(r"[\w.~/\\-]")  # a character of a path's name, before a home folder's
_WORD_BEFORE = re.compile(r"[^\s'\"`()<>\[\]{},;:=|]*\Z")
_FLAG = re.compile(r"-{1,2}[A-Za-z][A-Za-z0-9_-]*")  # -I/home/x/include
_COLOUR_BEFORE = re.compile(r"(?:\x1b|\\u001b|\\033|\\x1b|\\e)\[[0-9;]*m\Z")  # a terminal's colour code, as written or escaped


# Folders beside the homes that are nobody's: macOS's /Users/Shared, Windows'
# C:\Users\Public and the profiles new users are made from, GitHub Actions' runner
# (/home/runner/work/..., /Users/runner/...) and Homebrew's on Linux
# (/home/linuxbrew/.linuxbrew); and a number, which no system takes as a user's name
# (a route: GET /Users/42).
_NOT_A_HOME = frozenset({"shared", "public", "default", "default user", "all users", "defaultapppool", "runner", "linuxbrew"})


def _homes(text: str, users: frozenset[str]) -> str:
    """``text`` with each home folder of a path as Unix writes it shortened (``_home``)."""
    pieces = []
    done = 0
    for match in _HOME.finditer(text):
        start = _home_start(text, match.start(), done)
        pieces += (text[done:start], _home(text, start, match.end(), match["user"], match["rest"], users))
        done = match.end()
    if not pieces:
        return text
    pieces.append(text[done:])
    return "".join(pieces)


def _home_start(text: str, at: int, floor: int) -> int:
    """Where the path of the home folder found ``at`` begins, not before ``floor``:
    at its drive (before /Users/), or at a relative path's climb to the root
    (../../home/x/, as a tool prints a path from its folder)."""
    if text.startswith("..", at - 2) and at - 2 >= floor:
        start = at - 2
        while start - 3 >= floor and text.startswith("../", start - 3):
            start -= 3
        return start
    if text.startswith("/Users/", at):
        drive = _DRIVE.search(text, max(floor, at - 11), at)
        if drive is not None:
            return drive.start()
    return at


def _windows_home(match: re.Match[str], users: frozenset[str]) -> str:
    return _home(match.string, match.start(), match.end(), match["user"], match["rest"], users)


def _home(text: str, start: int, end: int, user: str, rest: str, users: frozenset[str]) -> str:
    """``~`` for the home folder of ``user`` that ``text`` holds from ``start`` to
    ``end``, where a path starts (after a flag, or a URL's scheme, too); a folder of
    that name inside another path (/srv/home/x/) is left alone, and so is a folder
    that is no one's home (``_NOT_A_HOME``). A home alone, with no path after it
    (``/home/x``, as a web app's route ``/home/settings`` is written too), is
    shortened where it is the home of one of ``users``, those of the session."""
    if user.lower() in _NOT_A_HOME or user.isdigit() or (not rest and user not in users):
        return text[start:end]
    before = _COLOUR_BEFORE.sub("", text[max(0, start - 128) : start])
    if before and _IN_A_PATH.match(before[-1]) and not before.endswith(("://", ":///")):
        word = _WORD_BEFORE.search(before)
        if not (word and _FLAG.fullmatch(word.group())):
            return text[start:end]
    return "~" + rest


def home_users(paths: Iterable[str | None]) -> frozenset[str]:
    """The users whose home folders ``paths`` are in (a session's working directory)."""
    found = set()
    for path in paths:
        if path:
            for match in (*_HOME.finditer(path), *_WINDOWS_HOME.finditer(path)):
                found.add(match["user"])
    return frozenset(found)


# Words without which a pattern cannot match (in any case): a text holding none of
# them is not scanned with it.
TRIGGERS: dict[str, tuple[str, ...]] = {
    "private-key": ("PRIVATE KEY",),
    "anthropic-key": ("sk-ant-",),
    "openai-key": ("sk-",),
    "github-token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "gitlab-token": ("glpat-", "gldt-", "glrt-", "glcbt-", "glptt-", "glft-"),
    "aws-access-key": ("AKIA", "ASIA", "ABIA", "ACCA"),
    "aws-secret-key": ("aws_secret_access_key", "akia", "asia"),
    "slack-token": ("xox", "xapp-"),
    "slack-webhook": ("hooks.slack.com",),
    "google-api-key": ("AIza",),
    "stripe-key": ("_live_", "_test_", "whsec_"),
    "npm-token": ("npm_",),
    "huggingface-token": ("hf_",),
    "sendgrid-key": ("SG.",),
    "digitalocean-token": ("dop_v1_", "doo_v1_", "dor_v1_"),
    "azure-storage-key": ("AccountKey=",),
    "google-oauth": ("ya29.", "gocspx-", "1//0"),
    "pypi-token": ("pypi-age",),
    "docker-token": ("dckr_",),
    "shopify-token": ("shpat_", "shpss_", "shpca_", "shppa_"),
    "telegram-bot-token": (":aa",),
    "discord-webhook": ("/api/webhooks/",),
    "ai-provider-key": ("gsk_", "pplx-", "xai-", "r8_", "lsv2_", "pcsk_", "tvly-", "sk_"),
    "service-token": ("tskey-", "sk.eyj", ".atlasv1.", "ops_eyj", "pscale_", "nfp_", "bkua_", "pul-", "-us", "rnd_", "cfpat-", "ltai"),
    "linear-key": ("lin_api_", "lin_oauth_"),
    "notion-token": ("ntn_", "secret_"),
    "databricks-token": ("dapi",),
    "mailgun-key": ("key-",),
    "age-secret-key": ("age-secret-key-",),
    "figma-token": ("figd_",),
    "grafana-token": ("glc_", "glsa_"),
    "postman-key": ("pmak-",),
    "newrelic-key": ("nrak-",),
    "atlassian-token": ("atatt3",),
    "doppler-token": ("dp.st.", "dp.pt.", "dp.ct.", "dp.sa.", "dp.scim.", "dp.audit."),
    "sentry-token": ("sntrys_", "sntryu_"),
    "supabase-key": ("sbp_", "sb_secret_"),
    "vault-token": ("hvs.", "hvb.", "hvr."),
    "heroku-key": ("hrku-",),
    "rubygems-key": ("rubygems_",),
    "flyio-token": ("fm1_", "fm2_"),
    "resend-key": ("re_",),
    "airtable-token": ("pat",),
    "dropbox-token": ("sl.",),
    "square-token": ("sq0csp-", "sq0atp-"),
    "jwt": ("eyJ",),
    "bearer-token": ("bearer",),
    "basic-auth": ("authorization",),
    "authorization-header": ("authorization",),
    "signed-url": ("sig=", "signature="),
    "cookie": ("cookie:",),
    "registry-auth": ("auth", ".dockerconfigjson"),
    "kube-client-key": ("client-key-data",),
    "command-password": (
        "-u ", "-u\t", "--user", "--pass", "curl", "mysql", "mariadb", "sshpass", "redis-cli", "-passin", "-passout", "storepass", "keypass",
        "machine",
    ),
    "url-password": ("://",),
    "password": ("password", "passwd", "pwd"),
    "password-field": (
        "password", "passwd", "passphrase", "secret", "token", "api_key", "apikey", "auth_key", "authkey", "private_key",
        "privatekey", "access_key", "accesskey", "credential",
    ),
    "assigned-secret": ("secret", "token", "pass", "credential", "key"),
    "assigned-key": ("key",),
}


@dataclass
class Redactor:
    """Replaces secrets in text, and counts what it replaced, by kind."""

    enabled: bool = True
    shorten_home: bool = True
    extra: Mapping[str, str] = field(default_factory=dict)  # kind -> pattern, from the configuration
    allow: Iterable[str] = ()  # values never replaced
    counts: Counter[str] = field(default_factory=Counter)
    # Texts already seen since the last take_counts (a tool's output often comes twice
    # in a transcript, a path many times): text -> (result, what was replaced in it).
    _seen: dict[str, tuple[str, Counter[str]]] = field(default_factory=dict, repr=False)
    # While a session is converted: the long texts known to hold no secret (memo.py).
    memo: Memo | None = field(default=None, repr=False)
    # While a session is converted: its users (home_users), whose home alone is shortened.
    users: frozenset[str] = field(default=frozenset(), repr=False)

    def __post_init__(self) -> None:
        self._allow = frozenset(self.allow)
        self._in_found: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {}
        self._keep_lines = False  # a secret replaced keeps the line breaks it spanned (``diff``)

    @functools.cached_property
    def _rules(self) -> list[tuple[str, re.Pattern[str], tuple[str, ...] | None]]:
        """Each kind, its pattern and the words it needs (None: every text is searched),
        compiled on first use: a build whose sessions all come from the cache redacts
        nothing. The built-in patterns' word boundaries are ASCII's: a token right
        after a letter of another alphabet (``令牌ghp_...``) begins a word."""
        patterns = {**PATTERNS, **self.extra} if self.enabled else {}
        return [
            (kind, re.compile(_named(pattern), 0 if kind in self.extra else re.ASCII), TRIGGERS.get(kind) if kind not in self.extra else None)
            for kind, pattern in patterns.items()
        ]

    @functools.cached_property
    def _words(self) -> list[str]:
        return sorted({word.lower() for _, _, triggers in self._rules for word in triggers or ()})

    @functools.cached_property
    def _kinds_of(self) -> dict[str, frozenset[str]]:
        """For each trigger word, the kinds it calls for."""
        kinds: dict[str, set[str]] = {}
        for kind, _, triggers in self._rules:
            for word in triggers or ():
                kinds.setdefault(word.lower(), set()).add(kind)
        return {word: frozenset(found) for word, found in kinds.items()}

    @functools.cached_property
    def _any_word(self) -> re.Pattern[str]:
        """One pass finds the trigger words a text holds (most hold none; see ``_hits``)."""
        return re.compile(_one_of(self._words))

    @functools.cached_property
    def _always(self) -> bool:
        return any(triggers is None for _, _, triggers in self._rules)

    def text(self, value: str) -> str:
        """``value`` redacted; a text met again in the same session (a path, a tool's
        name, a command run again: three in four texts of a session) is not searched
        again, its counts added again."""
        seen = self._seen.get(value)
        if seen is None:
            before = self.counts.copy()
            memo = self.memo if len(value) >= _REMEMBER_FROM else None
            seen = self._seen[value] = (self._text(value, memo), self.counts - before)
        else:
            self.counts.update(seen[1])
        return seen[0]

    def field(self, name: str, value: Any) -> Any:
        """The text or number given to the field ``name`` of JSON data (a tool's input,
        an entry's fields): replaced whole where the name says it holds a secret
        (``{"password": "..."}``, which no pattern of a secret's own shape finds), else
        a text redacted as any text."""
        if isinstance(value, str):
            if self.enabled and len(value) > 3 and secret_name(name) and value not in self._allow and not _REFERENCE.match(value) and not _VERSION.fullmatch(value):
                self.counts[_FIELD] += 1
                return f"[REDACTED:{_FIELD}]"
            return self.text(value)
        if self.enabled and len(str(value)) > 3 and secret_name(name):  # a PIN, a password of digits
            self.counts[_FIELD] += 1
            return f"[REDACTED:{_FIELD}]"
        return value

    def diff(self, lines: list[str]) -> list[str]:
        """The lines of a diff (each after its mark, " ", "-" or "+"), redacted as one
        text, so that what spans lines (a private key) is found; each keeps its place:
        a line that a secret took whole is left with its mark alone, and one that it took
        in part (its text after a key's END line) keeps its mark before what is left."""
        if len(lines) < 2 or any("\n" in line for line in lines):
            return [self.text(line) for line in lines]
        self._keep_lines = True
        try:
            redacted = self._text("\n".join(lines)).split("\n")
        finally:
            self._keep_lines = False
        return [new if new.startswith(old[:1]) else old[:1] + new for old, new in zip(lines, redacted)]

    def _text(self, value: str, memo: Memo | None = None) -> str:
        if self._rules:
            value = self._secrets_out(value) if memo is None else self._remembered(value, memo)
        if self.shorten_home:
            if "/Users/" in value or "/home/" in value:
                value = _homes(value, self.users)
            if ":\\" in value or "\\\\wsl" in value:
                value = _WINDOWS_HOME.sub(functools.partial(_windows_home, users=self.users), value)
        return value

    def _remembered(self, value: str, memo: Memo) -> str:
        """``_secrets_out``, but not searched again when ``memo`` knows it free of secrets."""
        digest = memo.digest(value)
        if memo.is_clean(digest):
            return value
        redacted = self._secrets_out(value)
        if redacted == value:
            memo.found_clean(digest)
        return redacted

    def _secrets_out(self, value: str) -> str:
        # (First: each part of a secret that a mark cuts in two may be found as one.)
        if "\x1b" in value or _UNDRAWN.search(value):
            value = self._unseen(value)
        redacted = self._found_out(value)
        if ("\x1b[" in redacted or "\\" in redacted or "%" in redacted) and (self._always or self._hits(redacted.lower())):
            redacted = self._joined(redacted)
        return self._escaped(redacted) if "\\" in redacted else redacted

    def _joined(self, value: str) -> str:
        """``value`` with the secrets right after a code that runs into them replaced too:
        such a code's last letter or digit joins the token's first (``\\x1b[31mghp_...``
        as ``grep --color`` writes it, ``\\nsk-ant-...`` in JSON printed as it is,
        ``%3Dghp_...`` in a URL), where no pattern's start would find it."""
        pieces = _JOINER.split(value)
        if len(pieces) > 1:
            pieces[::2] = map(self._found_out, pieces[::2])
        return "".join(pieces)

    def _escaped(self, value: str) -> str:
        """``value`` with the secrets written in it with Markdown's escapes inside
        (``sk\\_live\\_...``, which a page shows as ``sk_live_...``) replaced too."""
        return self._found_without(value, _ESCAPE, r"\1")

    def _unseen(self, value: str) -> str:
        """``value`` with the secrets that what a page does not show runs through replaced
        too: a terminal's codes (``ghp_\\x1b[m\\x1b[K...``, as ``grep --color`` marks the
        part of a token it matched), which a page leaves out, and the characters a
        browser does not draw (a zero-width space pasted inside a token, a mark of
        direction, which a title leaves out)."""
        return self._found_without(value, _UNSEEN, "")

    def _found_without(self, value: str, marks: re.Pattern[str], kept: str) -> str:
        """``value`` with the secrets found in it once each of ``marks`` is replaced by
        ``kept`` (what the mark shows, at its end) replaced where they are."""
        plain = marks.sub(kept, value)
        if plain == value:
            return value
        redacted = self._found_out(plain)
        if redacted == plain:
            return value
        # What changed, from the first part replaced to the last, put where it is in
        # ``value`` (each character of ``plain`` is one of ``value``, which also holds
        # the marks): between them, the text goes without its marks.
        removed = {index for match in marks.finditer(value) for index in range(match.start(), match.end() - len(match.expand(kept)))}
        at = [index for index in range(len(value)) if index not in removed]
        first = len(os.path.commonprefix([plain, redacted]))
        after = min(len(os.path.commonprefix([plain[::-1], redacted[::-1]])), len(plain) - first, len(redacted) - first)
        end = len(plain) - after
        start_at = at[first] if first < len(at) else len(value)
        end_at = at[end - 1] + 1 if end > first else start_at
        return value[:start_at] + redacted[first : len(redacted) - after] + value[end_at:]

    def _found_out(self, value: str) -> str:
        """``value`` with the secrets its patterns find replaced: those whose words it holds."""
        lowered = value.lower()
        hits = self._hits(lowered)
        return self._redact(value, hits, lowered) if hits or self._always else value

    def _hits(self, lowered: str) -> set[str]:
        """The trigger words ``lowered`` holds. One pass finds, at each place not inside
        a word found before, the longest word starting there: the words inside those are
        held, and so is a word that begins inside one and goes on past its end, which
        is looked for in the text itself."""
        hits: set[str] = set()
        for found in set(self._any_word.findall(lowered)):
            inside, across = self._in_found.get(found) or self._words_in(found)
            hits |= inside
            hits.update(word for word in across if word not in hits and word in lowered)
        return hits

    def _words_in(self, found: str) -> tuple[frozenset[str], tuple[str, ...]]:
        """The trigger words inside ``found``, and those that may begin inside it and
        go on past its end."""
        inside = frozenset(word for word in self._words if word in found)
        across = tuple(
            word for word in self._words
            if word not in inside and any(word.startswith(found[start:]) for start in range(1, len(found)))
        )  # fmt: skip
        self._in_found[found] = (inside, across)
        return inside, across

    def _redact(self, value: str, hits: set[str], lowered: str) -> str:
        """``value`` with each kind of secret replaced; ``lowered``: it in lower case,
        made again only once a kind has replaced something."""
        wanted = frozenset().union(*(self._kinds_of[word] for word in hits))
        for kind, pattern, triggers in self._rules:
            if triggers is None or kind in wanted:
                replace = functools.partial(self._replace, kind)
                if triggers is not None and kind in BY_LINE:  # (not a pattern of the user's of that name)
                    redacted = _by_line(pattern, value, lowered, [word for word in triggers if word in hits], replace)
                else:
                    redacted = pattern.sub(replace, value)
                if redacted != value:
                    value, lowered = redacted, redacted.lower()
        return value

    def _replace(self, kind: str, match: re.Match[str]) -> str:
        secret = match.group("secret") if "secret" in match.re.groupindex else None
        value = secret if secret is not None else match.group()
        if value in self._allow or (kind not in self.extra and kind in _NOT_SECRET and _NOT_SECRET[kind](match, value)):
            return match.group()
        self.counts[kind] += 1
        marker = f"[REDACTED:{kind}]"
        if self._keep_lines:
            marker += "\n" * value.count("\n")
        if secret is None:
            return marker
        start, end = match.span("secret")
        whole = match.start()
        return match.group()[: start - whole] + marker + match.group()[end - whole :]

    def settings(self) -> dict[str, Any]:
        """What decides the output of this redactor (for telling when a cache is stale)."""
        return {"enabled": self.enabled, "home": self.shorten_home, "extra": dict(self.extra), "allow": sorted(self._allow)}

    def data(self, value: Any) -> Any:
        """``value`` (strings, lists, dicts: parsed JSON) with every string redacted."""
        return mapped(value, self.text, keys=True, named=self.field, diff=self.diff)

    def take_counts(self) -> Counter[str]:
        """What was replaced since the last call, by kind; texts seen are forgotten."""
        counts, self.counts = self.counts, Counter()
        self._seen.clear()
        return counts


_REMEMBER_FROM = 512  # characters: a shorter text is searched again at each conversion, not looked up in the memo

# A backslash before a character of punctuation: Markdown shows the character alone.
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
# What a page does not show of a text (``Redactor._unseen``): a terminal's codes, and
# the characters a browser does not draw (a soft hyphen, zero-width spaces and joiners,
# marks and changes of direction, a byte order mark).
_UNDRAWN = re.compile("[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
_UNSEEN = re.compile(f"{ANSI.pattern}|{_UNDRAWN.pattern}")
# What runs into a token's start (``Redactor._joined``), kept with the pieces between
# them: a terminal's control sequence (a colour), as it is or escaped (``\\u001b[31m``
# in JSON, ``\\033[31m`` in a shell script), a line break or a tab escaped as a JSON or
# C string writes it, a character %-encoded in a URL.
_JOINER = re.compile(r"((?:\x1b|\\(?:u001[bB]|x1[bB]|033|e))\[[0-9;?]*[A-Za-z]|\\[nrt]|%[0-9A-Fa-f]{2})")

# Kinds whose every match lies within a line and holds one of their trigger words and
# a "=" or ":" after it: only the lines holding both are searched. Their words are
# common ("key", "token", "://", "password"), and their patterns costly.
BY_LINE = frozenset({"assigned-secret", "assigned-key", "url-password", "password", "password-field", "registry-auth"})


def _by_line(
    pattern: re.Pattern[str], value: str, lowered: str, words: list[str], replace: Callable[[re.Match[str]], str]
) -> str:
    """``pattern.sub(replace, value)``, searching only the lines that hold one of
    ``words`` (in ``lowered``, ``value`` in lower case) and a "=" or ":" after it."""
    if len(lowered) != len(value):  # a few letters are longer in lower case: places would shift
        return pattern.sub(replace, value)
    lines: set[tuple[int, int]] = set()
    for word in words:
        at = lowered.find(word)
        while at != -1:
            end = lowered.find("\n", at)
            end = len(value) if end == -1 else end
            if lowered.find("=", at, end) != -1 or lowered.find(":", at, end) != -1:
                lines.add((lowered.rfind("\n", 0, at) + 1, end))
            at = lowered.find(word, end)
    pieces, done = [], 0
    for start, end in sorted(lines):
        pieces += [value[done:start], pattern.sub(replace, value[start:end])]
        done = end
    return "".join(pieces) + value[done:]


_GROUP = re.compile(r"\(\?P<(\w+)>")


def _one_of(words: Iterable[str]) -> str:
    """A pattern matching any of ``words``, written as a tree of their common
    beginnings: at each place in a text, one character is tried against a set
    rather than each word in turn."""
    tree: dict[str, Any] = {}
    for word in words:
        node = tree
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def pattern(node: dict[str, Any]) -> str:
        branches = [re.escape(char) + pattern(rest) for char, rest in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return pattern(tree) or "(?!)"


def _named(pattern: str) -> str:
    """A pattern with its named groups but ``secret`` unnamed (a user's pattern may
    name its own groups)."""
    return _GROUP.sub(lambda m: m.group(0) if m.group(1) == "secret" else "(?:", pattern)


def check_pattern(pattern: str) -> str | None:
    """Why ``pattern`` cannot be used, or None when it can."""
    try:
        re.compile(_named(pattern))
    except re.error as error:
        return str(error)
    return None

"""Faults of the Hub as one line: every command that reaches the Hub (queue, submit, worker, publish, publish-results)
turns what ``huggingface_hub`` raises into a ``HubFault`` saying what failed and what to do; a fault that may pass (the
network, the Hub's own 5xx or 429) is marked transient, and ``retry`` tries it again with a bounded backoff."""

from __future__ import annotations

import contextlib
import os
import time

from wordbench.errors import WordbenchError, warn

LOGIN_HINT = "log in with 'hf auth login', set HF_TOKEN, or pass --token"
TRANSIENT_STATUS = (408, 425, 429, 500, 502, 503, 504)
# network failures of requests, httpx and the standard library, by class name (none of them is imported here)
NETWORK = {"ConnectionError", "ConnectError", "ConnectTimeout", "ReadTimeout", "Timeout", "TimeoutException", "TimeoutError",
           "TransportError", "NetworkError", "RemoteProtocolError", "ProtocolError", "ChunkedEncodingError"}


class HubFault(WordbenchError):
    """The Hub refused or could not be reached; ``transient``: trying again later may succeed."""

    def __init__(self, message: str, transient: bool = False):
        super().__init__(message)
        self.transient = transient


def scrub(text: str, token: str | None) -> str:
    """``text`` with any token (given or from HF_TOKEN) replaced by ``***``."""
    for secret in (token, os.environ.get("HF_TOKEN")):
        if secret:
            text = text.replace(secret, "***")
    return text


def hub_fault(what: str, exc: BaseException, token: str | None = None, cls: type = HubFault) -> HubFault:
    """``exc`` raised while ``what`` as one line (token scrubbed), classified: offline, unreachable (transient),
    unauthorised, missing, the Hub's own trouble (transient), or anything else with its first line."""
    from huggingface_hub.errors import OfflineModeIsEnabled, RepositoryNotFoundError

    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    status = getattr(getattr(exc, "response", None), "status_code", None)
    names = {c.__name__ for c in type(exc).__mro__}
    transient = False
    if isinstance(exc, OfflineModeIsEnabled):
        text = f"{what} failed: the Hub is switched off here (HF_HUB_OFFLINE is set): unset it to reach the Hub"
    elif isinstance(exc, RepositoryNotFoundError) or status == 404:
        text = f"{what} failed: not found on the Hub ({first}); check the name (a private repository needs a token: {LOGIN_HINT})"
    elif status in (401, 403):
        text = f"{what} failed: not authorised (HTTP {status}): {LOGIN_HINT}, with a token that may write there"
    elif status in TRANSIENT_STATUS:
        text, transient = f"{what} failed: the Hub answered HTTP {status} ({first}); try again later", True
    elif names & NETWORK or isinstance(exc, (ConnectionError, TimeoutError)):
        text, transient = f"{what} failed: the Hub cannot be reached ({type(exc).__name__}: {first}); check the network", True
    else:
        text = f"{what} failed: {first} ({LOGIN_HINT})"
    return cls(scrub(text, token), transient=transient)


@contextlib.contextmanager
def hub_errors(what: str, token: str | None = None):
    """Any error of the Hub client inside the block becomes one ``HubFault`` (wordbench's own errors pass)."""
    try:
        yield
    except WordbenchError:
        raise
    except Exception as exc:  # noqa: BLE001 - the client raises many kinds (httpx, OSError, HfHubHTTPError): one line
        raise hub_fault(what, exc, token) from None


def retry(fn, tries: int = 5, first_s: float = 2.0, sleep=None):
    """``fn()``, tried again after a transient ``HubFault`` (waits of ``first_s``, doubling, at most a minute each;
    ``tries`` in all); a permanent fault, or the last transient one, is raised."""
    for attempt in range(tries):
        try:
            return fn()
        except HubFault as exc:
            if not exc.transient or attempt == tries - 1:
                raise
            wait = min(60.0, first_s * 2**attempt)
            warn(f"{exc} (try {attempt + 1} of {tries}; again in {wait:.0f} s)")
            (sleep or time.sleep)(wait)

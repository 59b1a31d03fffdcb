"""Publishing to the HuggingFace Hub: a dataset version (``publish``) and run summaries (``publish_results``).

Safe by construction: publishing deletes only what it wrote. An existing ``--local`` folder is replaced only
when it holds wordbench's publish marker for the same benchmark (a build folder, the cache, a symlink or any
other folder never; a previous publish with files added only with ``replace_local``); a published tag is never
moved; the token is never printed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from wordbench.errors import ConfigError, DataFormatError

from wordbench.files import check_writable

from .hubfaults import HubFault, hub_fault
from .hub import SIGNATURE_FILE, _load_folder, _read_meta, build, card_text
from .registry import get

_ENTRY = re.compile(r"^- v(\d+\.\d+\.\d+)\b")
VERSION = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)", re.ASCII)  # MAJOR.MINOR.PATCH, no leading zeros
MARKER = ".wordbench-publish.json"  # written into every publish folder: the only folders publish replaces


class PublishError(HubFault):
    """The Hub refused or could not be reached."""


def _hub_error(what: str, exc: Exception, token: str | None) -> PublishError:
    return hub_fault(what, exc, token, cls=PublishError)


def changelog_entries(card: str) -> list[str]:
    """The ``- vX.Y.Z ...`` lines of a card's ``## Changelog`` section, newest first as written."""
    section = card.partition("\n## Changelog\n")[2].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if _ENTRY.match(line)]


def _merge_history(new_version: str, previous: list[str]) -> list[str]:
    """Previous entries without the one for ``new_version`` (a local dry run may rewrite its own entry)."""
    return [line for line in previous if _ENTRY.match(line).group(1) != new_version]


def changelog_line(text: str | None) -> str | None:
    """``--changelog`` as the card's one changelog line: several lines, or characters a reader cannot see, are one line
    of error (the card's history is read back line by line); markup is shown as text, not run (``<`` and ``>`` escaped)."""
    if text is None:
        return None
    from wordbench.text import invisible_char

    if "\n" in text or "\r" in text:
        raise ConfigError("--changelog is one line (the card's changelog keeps one line per version); join the lines")
    found = invisible_char(text)
    if found:
        raise ConfigError(f"--changelog holds {found}, which a reader of the card would not see: remove it")
    if not text.strip():
        raise ConfigError("--changelog is empty: say what changed, or leave it out")
    return text.strip().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def check_version(version: str) -> None:
    if not VERSION.fullmatch(version):
        raise ConfigError(f"version must be MAJOR.MINOR.PATCH in ASCII digits without leading zeros (e.g. 1.0.0), got {version!r}")


def _inside(a: Path, b: Path) -> bool:
    return a == b or b in a.parents


def check_target(folder: Path, name: str, replace_local: bool = False) -> list[str]:
    """Refuse any ``--local`` that publish did not write (a build, the cache, a symlink, a foreign folder);
    return the changelog of a previous publish there."""
    from wordbench.cache import cache_dir

    if folder.is_symlink():
        raise ConfigError(f"--local {folder} is a symlink: give the real folder")
    real, cache = folder.resolve(), cache_dir().resolve()
    if _inside(real, cache) or _inside(cache, real):
        raise ConfigError(f"--local {folder} is the wordbench cache or holds it: choose a folder of its own")
    if not folder.exists():
        return []
    if not folder.is_dir():
        raise ConfigError(f"{folder} is a file: give --local a folder")
    if not any(folder.iterdir()):
        return []
    try:
        meta = _read_meta(folder) or {}
    except DataFormatError:  # a corrupt signature.json: not a folder wordbench can vouch for
        meta = {}
    if not (folder / MARKER).is_file():
        what = "a wordbench build (publish copies a build, it never replaces one)" if meta else "not a wordbench publish folder"
        raise ConfigError(f"--local {folder} is {what}: choose a new or empty folder")
    if meta.get("benchmark") != name:
        raise ConfigError(f"--local {folder} holds a {meta.get('benchmark')} publish, not {name}: choose another folder")
    known = {"data", "jsonl", "README.md", SIGNATURE_FILE, MARKER, *meta.get("extra_files", [])}
    stray = sorted(p.name for p in folder.iterdir() if p.name not in known)
    if stray and not replace_local:
        raise ConfigError(f"{folder} holds files wordbench did not write ({', '.join(stray[:3])}); move them, or pass "
                          "--replace-local to replace this earlier publish with them")
    return changelog_entries((folder / "README.md").read_text()) if (folder / "README.md").is_file() else []


def _api(token: str | None):
    from huggingface_hub import HfApi

    return HfApi(token=token)  # token None: HfApi reads HF_TOKEN or the login cache itself


def hub_state(api, repo_id: str, token: str | None) -> tuple[set[str], list[str] | None]:
    """(tags of the dataset repo, changelog of its card on main); an absent repo has neither."""
    from huggingface_hub.errors import EntryNotFoundError, RepositoryNotFoundError, RevisionNotFoundError

    try:
        refs = api.list_repo_refs(repo_id, repo_type="dataset")
    except RepositoryNotFoundError:
        return set(), None
    except Exception as exc:  # noqa: BLE001 - network / auth: one line, token scrubbed
        raise _hub_error(f"reading datasets/{repo_id}", exc, token) from None
    tags = {t.name for t in refs.tags}
    try:
        card = Path(api.hf_hub_download(repo_id, "README.md", repo_type="dataset")).read_text()
    except (EntryNotFoundError, RevisionNotFoundError):
        return tags, None
    except Exception as exc:  # noqa: BLE001
        raise _hub_error(f"reading the card of datasets/{repo_id}", exc, token) from None
    return tags, changelog_entries(card)


def check_repo_id(repo_id: str) -> None:
    """ORG/NAME as the Hub accepts it (huggingface_hub's own rule), or a one-line error."""
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    try:
        if repo_id.count("/") != 1:
            raise HFValidationError("expected ORG/NAME")
        validate_repo_id(repo_id)
    except HFValidationError as exc:
        raise ConfigError(f"repo id must be ORG/NAME as the Hub accepts it, got '{repo_id}': {str(exc).splitlines()[0]}") from None


def publish(name: str, repo_id: str | None, version: str, local: Path | None = None, dry_run: bool = False, overrides=(),
            changelog: str | None = None, private: bool = False, progress: bool = True, faithful: bool = False,
            replace_local: bool = False, token: str | None = None) -> Path:
    """Write the Hub layout for ``version`` into ``local`` and (unless ``dry_run``) push it and tag ``vX.Y.Z``.
    The card's changelog continues the previous card's (the Hub's when online, else the local folder's)."""
    check_version(version)
    changelog = changelog_line(changelog)
    if repo_id is None:
        dry_run = True  # a local folder only
    else:
        check_repo_id(repo_id)
    bench = get(name)
    tag = f"v{version}"
    folder = Path(local) if local else Path("publish") / f"{name}-{version}"
    history = check_target(folder, name, replace_local)
    check_writable(folder, "--local")
    api = None
    if not dry_run:
        api = _api(token)
        tags, hub_history = hub_state(api, repo_id, token)
        if tag in tags:
            raise ConfigError(f"datasets/{repo_id} already has tag {tag}: a published version never changes; publish a new version")
        if hub_history is not None:
            history = hub_history
    built, meta = build(name, overrides, progress=progress, faithful=faithful)
    if _inside(folder.resolve(), built.resolve()) or _inside(built.resolve(), folder.resolve()):
        raise ConfigError(f"--local {folder} is the build folder {built} (or holds it): choose a folder of its own")
    # Written beside, then swapped in: a failure leaves the earlier publish whole.
    tmp = folder.parent / f".{folder.name}.publishing-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(built, tmp)
    (tmp / MARKER).write_text(json.dumps({"benchmark": name, "version": version}) + "\n")
    if folder.exists():
        shutil.rmtree(folder)  # checked above: a publish folder of this benchmark, which publish wrote
    tmp.rename(folder)
    data = _load_folder(folder)
    card = card_text(bench, data, meta, bench.builder().summary(data), version, changelog, repo_id=repo_id,
                     history=_merge_history(version, history))
    (folder / "README.md").write_text(card)
    if dry_run:
        return folder
    try:
        api.create_repo(repo_id, repo_type="dataset", exist_ok=True, private=private)
        api.upload_folder(folder_path=str(folder), repo_id=repo_id, repo_type="dataset", commit_message=f"wordbench {name} {tag}")
        api.create_tag(repo_id, tag=tag, repo_type="dataset", tag_message=f"wordbench {name} {tag}: {meta['signature']}")
    except Exception as exc:  # noqa: BLE001 - auth / network: one line, token never printed
        raise _hub_error(f"publishing to datasets/{repo_id}", exc, token) from None
    return folder


def publish_results(runs: list[Path], repo_id: str | None = None, records: bool = True, dry_run: bool = False,
                    token: str | None = None, local: Path | None = None, submission: dict | None = None) -> tuple[Path, dict]:
    """Add runs to a results dataset (``benchmarks.leaderboard.collect``): the folder ``local`` (default
    ``publish/results-ORG-NAME``), first filled with the Hub repository's current contents when it exists; then
    (unless ``dry_run`` or no ``repo_id``) uploaded in one commit. Returns the folder and what it holds."""
    from . import leaderboard
    from .results_folder import check_results_folder

    if repo_id is None and local is None:
        raise ConfigError("give --repo-id ORG/NAME (the Hub results dataset) or --local DIR (a folder), or both")
    if repo_id is not None:
        check_repo_id(repo_id)
    folder = Path(local) if local else Path("publish") / f"results-{repo_id.replace('/', '-')}"
    check_results_folder(folder)
    check_writable(folder, "--local")
    api = None
    if repo_id is not None and not dry_run:
        api = _api(token)
        if _repo_exists(api, repo_id, token):  # start from what the Hub holds, so its rows are kept and a republished run replaces its own
            try:
                api.snapshot_download(repo_id, repo_type="dataset", local_dir=str(folder))
            except Exception as exc:  # noqa: BLE001
                raise _hub_error(f"downloading datasets/{repo_id}", exc, token) from None
    counts = leaderboard.collect(list(runs), folder, records=records, repo_id=repo_id, submission=submission)
    if api is not None:
        try:
            api.create_repo(repo_id, repo_type="dataset", exist_ok=True)
            # a parquet file no longer written (an older layout's) is removed in the same commit, so no row is read twice
            api.upload_folder(folder_path=str(folder), repo_id=repo_id, repo_type="dataset", delete_patterns=["data/*/*.parquet"],
                              commit_message=f"wordbench results: {len(runs)} run(s) added")
        except Exception as exc:  # noqa: BLE001
            raise _hub_error(f"uploading results to datasets/{repo_id}", exc, token) from None
    return folder, counts


def _repo_exists(api, repo_id: str, token: str | None) -> bool:
    from huggingface_hub.errors import RepositoryNotFoundError

    try:
        api.list_repo_refs(repo_id, repo_type="dataset")
        return True
    except RepositoryNotFoundError:
        return False
    except Exception as exc:  # noqa: BLE001
        raise _hub_error(f"reading datasets/{repo_id}", exc, token) from None

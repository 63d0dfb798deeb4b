"""Drives the REST client openapi-python-client generated from a running controller's OpenAPI document.

AppRestIT generates the client into a folder, puts it on PYTHONPATH and runs this script with the
controller's address, a bearer token and the datapath ids of its switches. Every call goes through the
generated, typed functions and models (no hand-written HTTP), so a document that misdescribes a body,
an enum, a null or an id fails here as it would fail an operator's script. Prints one JSON line of what
it saw; exits non-zero at the first surprise.
"""

import json
import sys

from heliograph_client import AuthenticatedClient
from heliograph_client.api.static_entries import (
    create_static_entry,
    delete_static_entry,
    get_static_entry,
    list_static_entries,
)
from heliograph_client.api.switch import list_switches
from heliograph_client.models import Error, StaticEntryBody, StaticEntryBodyEntryType, StaticEntryView, WriteOutcome
from heliograph_client.types import Unset


def check(condition, what):
    if not condition:
        raise SystemExit("generated client: " + what)


def main():
    base_url, token, dpids = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
    client = AuthenticatedClient(base_url=base_url, token=token, raise_on_unexpected_status=True)
    seen = {}

    switches = list_switches.sync(client=client)
    listed = sorted(s.dpid for s in switches)
    check(listed == sorted(dpids), f"listSwitches: {listed} is not {sorted(dpids)}")
    seen["switches"] = len(listed)

    dpid = dpids[0]
    body = StaticEntryBody(switch=dpid, name="generated-client", priority=2345, actions="output=1")
    body["eth_type"] = "0x0800"   # a match field: a further member, as in Floodlight
    body["ip_proto"] = "17"
    body["udp_dst"] = "5353"
    created = create_static_entry.sync_detailed(kind="flows", client=client, body=body)
    check(created.status_code == 201, f"createStaticEntry answered {created.status_code}: {created.content!r}")
    check(isinstance(created.parsed, WriteOutcome), f"createStaticEntry: {created.parsed!r}")
    check(created.parsed.outcome.value == "INSTALLED", f"createStaticEntry: {created.parsed.outcome}")
    check(created.parsed.stored.name == "generated-client", f"createStaticEntry: {created.parsed.stored}")
    seen["created"] = created.parsed.outcome.value

    entries = list_static_entries.sync(kind="flows", client=client, dpid=dpid)
    check([e.name for e in entries].count("generated-client") == 1, f"listStaticEntries: {entries}")
    seen["listed"] = len(entries)

    entry = get_static_entry.sync(kind="flows", dpid=dpid, name="generated-client", client=client)
    check(isinstance(entry, StaticEntryView), f"getStaticEntry: {entry!r}")
    check(entry.state.value == "INSTALLED", f"getStaticEntry: state {entry.state}")
    check(entry.entry["priority"] == 2345 and entry.entry["udp_dst"] == "5353", f"getStaticEntry: {entry.entry}")
    # the kind an entry says is a kind the path takes
    again = get_static_entry.sync(kind=entry.kind.value, dpid=dpid, name="generated-client", client=client)
    check(again.name == "generated-client", f"getStaticEntry by the entry's own kind {entry.kind}: {again!r}")
    seen["read"] = {"kind": entry.kind.value, "state": entry.state.value}

    deleted = delete_static_entry.sync(kind="flows", dpid=dpid, name="generated-client", client=client)
    check(isinstance(deleted, WriteOutcome), f"deleteStaticEntry: {deleted!r}")
    check(deleted.outcome.value == "DELETED", f"deleteStaticEntry: {deleted.outcome}")
    check(deleted.stored is None, f"deleteStaticEntry: stored {deleted.stored!r}")
    seen["deleted"] = deleted.outcome.value

    client.raise_on_unexpected_status = False
    gone = get_static_entry.sync_detailed(kind="flows", dpid=dpid, name="generated-client", client=client)
    check(gone.status_code == 404 and isinstance(gone.parsed, Error), f"getStaticEntry after the delete: {gone}")
    check(gone.parsed.field == "name" and gone.parsed.status == 404, f"the error body: {gone.parsed}")
    refused = create_static_entry.sync_detailed(kind="flows", client=client,
                                                body=StaticEntryBody(switch=dpid, name="no-such-match",
                                                                     actions="output=1",
                                                                     entry_type=StaticEntryBodyEntryType.GROUP))
    check(refused.status_code == 400 and isinstance(refused.parsed, Error), f"a refused create: {refused}")
    check(not isinstance(refused.parsed.field, Unset), f"a refused create names its field: {refused.parsed}")
    seen["refused"] = {"status": refused.parsed.status, "field": refused.parsed.field}
    print(json.dumps(seen))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# fhctl: drives a running fakehub from the tests (stdlib only).
#   fhctl.py PORT seed|fault|merge|edit JSON    a test control
#   fhctl.py PORT log                           "METHOD PATH STATUS" lines
#   fhctl.py PORT headers N                     request N's headers, JSON
#   fhctl.py PORT body REPO N                   issue N's body, as stored
#   fhctl.py PORT comments REPO                 comment bodies, JSON list
#   fhctl.py PORT violations                    one violation a line
import json
import sys
import urllib.request


def call(port, path, data=None):
    req = urllib.request.Request("http://127.0.0.1:%s/__fake/%s" %
                                 (port, path), data=data,
                                 method="POST" if data is not None else "GET")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read() or b"null")


def main(argv):
    port, cmd = argv[1], argv[2]
    if cmd in ("seed", "fault", "merge", "edit"):
        print(json.dumps(call(port, cmd, argv[3].encode())))
    elif cmd == "log":
        for e in call(port, "log"):
            print(e["method"], e["path"], e.get("status", "-"))
    elif cmd == "headers":
        print(json.dumps(call(port, "log")[int(argv[3])]["headers"]))
    elif cmd == "body":
        st = call(port, "state?repo=" + argv[3])
        for i in st["issues"]:
            if i["number"] == int(argv[4]):
                sys.stdout.buffer.write((i["body"] or "").encode())
    elif cmd == "comments":
        st = call(port, "state?repo=" + argv[3])
        print(json.dumps([c["body"] for c in st["comments"]]))
    elif cmd == "violations":
        for v in call(port, "violations"):
            print(json.dumps(v))
    else:
        print("fhctl: unknown command " + cmd, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

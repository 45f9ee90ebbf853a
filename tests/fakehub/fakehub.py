#!/usr/bin/env python3
# fakehub: a stateful fake of the GitHub REST endpoints git-campaign uses, on
# 127.0.0.1, checked against GitHub's own OpenAPI description: every request
# body and every response is validated, and each violation is recorded (and
# answered with a 500 when the fake itself is wrong). Python 3 stdlib only.
#
# Usage: fakehub.py [--port N] [--port-file F] [--prefix /api/v3]
#                   [--token T] [--violations F]
# Test controls (no auth): POST /__fake/seed, /__fake/merge, /__fake/fault,
# /__fake/reset; GET /__fake/log, /__fake/violations, /__fake/state.
# A fault: {"method", "path" (a regex), "count", "skip" (let N pass first),
# "kind": "status" (with "status", "body", "headers"), "drop" (no answer),
# "drop-after-apply", "slow" ("seconds": the answer held back after the
# request is applied), "race" (an issue is opened just before the request is
# applied, taking the next number)}; {"clear": true} drops every fault.
# /__fake/rename {"repo", "to"}: the repository moves, as a rename or a
# transfer does on GitHub: its old name answers 301 (GET) or 307 (writes)
# with a Location under the new one, which holds the same state.
# /__fake/edit {"repo", "number" or "comment", "set"} changes an issue, PR
# or comment as someone on GitHub would ("delete": true removes a comment).
# /__fake/review {"repo", "number", "user", "state"}: a review of PR number
# (APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED); /__fake/status
# {"repo", "number", "context", "state"}: a commit status on the PR's head;
# /__fake/check {"repo", "number", "name", "status", "conclusion"}: a check
# run on it (one per name, the last one given wins).
# A request for an operation outside the subset, or with a query parameter
# or value the operation does not declare, is a violation.
import argparse
import copy
import hashlib
import json
import os
import re
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC_FILE = os.path.join(HERE, "api.github.com.subset.json")
MAX_BODY = 65536
DOCS = "https://docs.github.com/rest"


# ---- a JSON-schema validator for the OpenAPI 3.0 keywords the subset uses

def _type_ok(t, v):
    if t == "object":
        return isinstance(v, dict)
    if t == "array":
        return isinstance(v, list)
    if t == "string":
        return isinstance(v, str)
    if t == "boolean":
        return isinstance(v, bool)
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == "null":
        return v is None
    return True


def validate(schema, v, where="$"):
    """Returns a list of violations of v against an OpenAPI 3.0 schema
    (nullable understood as OpenAPI means it, also beside oneOf/anyOf)."""
    errs = []
    if not isinstance(schema, dict):
        return errs
    if v is None and schema.get("nullable"):
        return errs
    for key in ("oneOf", "anyOf"):
        if key in schema:
            ok = [s for s in schema[key] if not validate(s, v, where)]
            if key == "oneOf" and len(ok) != 1 and not (
                    len(ok) > 1 and all(o == ok[0] for o in ok)):
                errs.append("%s: matches %d of oneOf" % (where, len(ok)))
            if key == "anyOf" and not ok:
                errs.append("%s: matches none of anyOf" % where)
    for s in schema.get("allOf", []):
        errs += validate(s, v, where)
    t = schema.get("type")
    if t and not _type_ok(t, v):
        errs.append("%s: %r is not of type %s" % (where, _short(v), t))
        return errs
    if "enum" in schema and v not in schema["enum"]:
        errs.append("%s: %r is not one of %s" % (where, _short(v),
                                                  schema["enum"]))
    if isinstance(v, dict):
        props = schema.get("properties", {})
        for r in schema.get("required", []):
            if r not in v:
                errs.append("%s: lacks required property '%s'" % (where, r))
        for k, val in v.items():
            if k in props:
                errs += validate(props[k], val, "%s.%s" % (where, k))
            elif schema.get("additionalProperties") is False:
                errs.append("%s: property '%s' is not allowed" % (where, k))
            elif isinstance(schema.get("additionalProperties"), dict):
                errs += validate(schema["additionalProperties"], val,
                                 "%s.%s" % (where, k))
    if isinstance(v, list) and "items" in schema:
        for i, item in enumerate(v):
            errs += validate(schema["items"], item, "%s[%d]" % (where, i))
        if "maxItems" in schema and len(v) > schema["maxItems"]:
            errs.append("%s: more than %d items" % (where,
                                                     schema["maxItems"]))
    if isinstance(v, str):
        if "maxLength" in schema and len(v) > schema["maxLength"]:
            errs.append("%s: longer than %d" % (where, schema["maxLength"]))
        if "minLength" in schema and len(v) < schema["minLength"]:
            errs.append("%s: shorter than %d" % (where, schema["minLength"]))
    if isinstance(v, int) and not isinstance(v, bool):
        if "minimum" in schema and v < schema["minimum"]:
            errs.append("%s: below %s" % (where, schema["minimum"]))
        if "maximum" in schema and v > schema["maximum"]:
            errs.append("%s: above %s" % (where, schema["maximum"]))
    return errs


def _short(v):
    s = json.dumps(v)
    return s if len(s) < 60 else s[:57] + "..."


# ---- the spec: operations by method and path template

class Spec:
    def __init__(self, path):
        with open(path) as f:
            self.doc = json.load(f)
        self.ops = []
        for tmpl, item in self.doc["paths"].items():
            rx = "^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)",
                              re.escape(tmpl)) + "$"
            for method, op in item.items():
                if method in ("get", "post", "patch", "put", "delete"):
                    self.ops.append((method.upper(), re.compile(rx), op))

    def find(self, method, path):
        """(op, params) for method and path; (None, params) when the path
        exists with other methods; (None, None) when it does not."""
        seen = None
        for m, rx, op in self.ops:
            mt = rx.match(path)
            if mt:
                seen = mt.groupdict()
                if m == method:
                    return op, mt.groupdict()
        return None, seen

    def example(self, op_path, method, status):
        op = self.doc["paths"][op_path][method]
        c = op["responses"][status]["content"]["application/json"]
        v = next(iter(c["examples"].values()))["value"]
        # some examples nest once more: {value, x-github-breaking-changes}
        while isinstance(v, dict) and set(v) <= {
                "value", "summary", "x-github-breaking-changes"}:
            v = v["value"]
        return copy.deepcopy(v)

    def schema(self, op_path, method, status):
        op = self.doc["paths"][op_path][method]
        c = op["responses"][status]["content"]["application/json"]
        return c["schema"]


# ---- state

class State:
    def __init__(self, spec, host):
        self.spec = spec
        self.host = host
        self.lock = threading.RLock()
        self.reset()

    def reset(self):
        self.repos = {}
        self.log = []
        self.violations = []
        self.faults = []
        self.renames = {}
        self.comment_id = 1000
        self.review_id = 80
        self.check_id = 4
        self.clock = 1700000000

    def repo(self, full):
        full = full.lower()
        if full not in self.repos:
            self.repos[full] = {"name": full, "next": 1, "issues": {},
                                "pulls": {}, "comments": {}, "reviews": {},
                                "statuses": {}, "checks": {}}
        return self.repos[full]

    def tick(self):
        self.clock += 1
        return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.clock))

    def new_issue(self, r, title, body, state="open"):
        n = r["next"]
        r["next"] += 1
        now = self.tick()
        o, name = r["name"].split("/")
        i = self.spec.example("/repos/{owner}/{repo}/issues/{issue_number}",
                              "get", "200")
        base = "https://api.github.com/repos/%s" % r["name"]
        i.update({"id": 5000 + n, "number": n, "title": title, "body": body,
                  "state": state, "comments": 0, "created_at": now,
                  "updated_at": now, "closed_at": None,
                  "url": "%s/issues/%d" % (base, n),
                  "html_url": "https://github.com/%s/issues/%d" %
                  (r["name"], n),
                  "comments_url": "%s/issues/%d/comments" % (base, n)})
        i.pop("pull_request", None)
        r["issues"][n] = i
        return i

    def new_pr(self, r, head, base, title, body, draft):
        n = r["next"]
        r["next"] += 1
        now = self.tick()
        owner = r["name"].split("/")[0]
        p = self.spec.example("/repos/{owner}/{repo}/pulls/{pull_number}",
                              "get", "200")
        # GitHub's own example fails its schema here (see the reference)
        p["requested_teams"] = []
        # a new PR has none of the example's labels or reviewers
        p["labels"] = []
        p["requested_reviewers"] = []
        p.update({"id": 9000 + n, "number": n, "title": title,
                  "body": body, "state": "open", "draft": bool(draft),
                  "merged": False, "merged_at": None, "closed_at": None,
                  "created_at": now, "updated_at": now,
                  "html_url": "https://github.com/%s/pull/%d" %
                  (r["name"], n),
                  "url": "https://api.github.com/repos/%s/pulls/%d" %
                  (r["name"], n)})
        p["head"] = dict(p["head"], ref=head, label="%s:%s" % (owner, head),
                         sha="%040x" % n)
        p["base"] = dict(p["base"], ref=base, label="%s:%s" % (owner, base))
        r["pulls"][n] = p
        return p


def code_points(s):
    return len(s)


def err_body(message, errors=None):
    b = {"message": message, "documentation_url": DOCS}
    if errors:
        b["errors"] = errors
    return b


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fakehub"

    def log_message(self, fmt, *args):
        pass

    # -- plumbing

    def _read(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def _send(self, status, body=None, headers=None, op=None):
        st = self.server.state
        data = b""
        if body is not None:
            data = json.dumps(body).encode()
        hdrs = {"x-ratelimit-limit": "5000", "x-ratelimit-remaining": "4999",
                "x-ratelimit-used": "1", "x-ratelimit-resource": "core",
                "x-ratelimit-reset": str(int(time.time()) + 3600)}
        hdrs.update(headers or {})
        if op is not None and body is not None:
            self._check_response(op, status, body)
        self.send_response(status)
        for k, v in hdrs.items():
            self.send_header(k, v)
        if data:
            self.send_header("Content-Type",
                             "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if data and self.command != "HEAD":
            self.wfile.write(data)
        if getattr(self, "_entry", None) is not None:
            self._entry["status"] = status

    def _text(self, text):
        data = text.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _violation(self, text):
        st = self.server.state
        rec = {"method": self.command, "path": self.path, "violation": text}
        with st.lock:
            st.violations.append(rec)
        vf = self.server.violations_file
        if vf:
            with open(vf, "a") as f:
                f.write(json.dumps(rec) + "\n")

    def _check_response(self, op, status, body):
        resp = op["responses"].get(str(status))
        if not resp or "content" not in resp:
            return
        schema = resp["content"]["application/json"]["schema"]
        for e in validate(schema, body)[:5]:
            self._violation("response %d: %s" % (status, e))

    # -- dispatch

    def do_GET(self):
        self._handle()

    def do_POST(self):
        self._handle()

    def do_PATCH(self):
        self._handle()

    def do_PUT(self):
        self._handle()

    def do_DELETE(self):
        self._handle()

    def _handle(self):
        st = self.server.state
        self._entry = None
        raw = self._read()
        url = urllib.parse.urlsplit(self.path)
        path = url.path
        query = urllib.parse.parse_qs(url.query)
        if path.startswith("/__fake/"):
            return self._control(path[8:], raw, query)
        hdrs = {k.lower(): v for k, v in self.headers.items()}
        if "authorization" in hdrs:
            hdrs["authorization"] = "<redacted>"
        entry = {"method": self.command, "path": self.path,
                 "headers": hdrs, "body": raw.decode("utf-8", "replace")}
        with st.lock:
            st.log.append(entry)
        self._entry = entry
        prefix = self.server.prefix
        if prefix:
            if not path.startswith(prefix + "/"):
                return self._send(404, err_body("Not Found"))
            path = path[len(prefix):]
        # GitHub's gates, in its order
        if not self.headers.get("User-Agent"):
            return self._send(403, err_body(
                "Request forbidden by administrative rules. Please make "
                "sure your request has a User-Agent header"))
        auth = self.headers.get("Authorization", "")
        m = re.match(r"^(?:Bearer|token) (.+)$", auth)
        if not m or m.group(1) != self.server.token:
            return self._send(401, err_body("Bad credentials"))
        if self.command != "GET" and (self.headers.get("If-None-Match") or
                                      self.headers.get("If-Match")):
            return self._send(400, err_body(
                "Conditional request headers are not allowed in unsafe "
                "requests unless supported by the endpoint"))
        if self._moved(path, prefix, url.query):
            return None
        fault = self._take_fault(self.command, path)
        if fault and fault.get("kind", "status") == "status":
            return self._send(fault.get("status", 500),
                              fault.get("body", err_body("fault")),
                              fault.get("headers"))
        if fault and fault["kind"] == "drop":
            return self._drop()
        body = None
        if raw:
            try:
                body = json.loads(raw)
            except ValueError:
                self._violation("request body is not JSON")
                return self._send(400, err_body("Problems parsing JSON"))
        op, params = self.server.spec.find(self.command, path)
        if op is None and params is None:
            self._violation("no such operation in the spec")
            return self._send(404, err_body("Not Found"))
        if op is None:
            self._violation("method not allowed by the spec")
            return self._send(404, err_body("Not Found"))
        if "requestBody" in op:
            schema = op["requestBody"]["content"]["application/json"][
                "schema"]
            if body is None:
                self._violation("request without a body")
                return self._send(400, err_body("Requires a body"))
            errs = validate(schema, body)
            if errs:
                for e in errs[:5]:
                    self._violation("request: " + e)
                return self._send(422, err_body("Invalid request.\n\n" +
                                                errs[0]))
        declared = {p["name"]: p for p in op.get("parameters", [])
                    if p["in"] == "query"}
        for name, values in query.items():
            p = declared.get(name)
            if p is None:
                self._violation("query parameter '%s' is not in the spec" %
                                name)
                continue
            for e in self._query_errors(p["schema"], values[0]):
                self._violation("query %s=%s: %s" % (name, values[0], e))
        with st.lock:
            if fault and fault["kind"] == "race" and "repo" in params:
                # someone else opens an issue just before this request
                st.new_issue(self._repo(params), "a racing issue", None)
            status, rbody, rhdrs = getattr(
                self, "op_" + op["operationId"].replace("/", "_").replace(
                    "-", "_"))(params, query, body)
        if fault and fault["kind"] == "drop-after-apply":
            return self._drop()
        if fault and fault["kind"] == "slow":
            time.sleep(fault.get("seconds", 3))
        # GitHub tags PATCH answers too: the same representation as a GET
        if self.command in ("GET", "PATCH") and status == 200:
            tag = 'W/"%s"' % hashlib.sha1(
                json.dumps(rbody, sort_keys=True).encode()).hexdigest()
            rhdrs = dict(rhdrs or {}, ETag=tag)
            if self.command == "GET" and \
                    self.headers.get("If-None-Match") == tag:
                self._check_response(op, 200, rbody)
                return self._send(304, None, rhdrs)
        return self._send(status, rbody, rhdrs, op)

    def _moved(self, path, prefix, query):
        """A renamed repository, as GitHub answers for its old name: 301
        to reads, 307 to writes, Location under the new name."""
        st = self.server.state
        m = re.match(r"^/repos/([^/]+)/([^/]+)(.*)$", path)
        if not m:
            return None
        with st.lock:
            new = st.renames.get((m.group(1) + "/" + m.group(2)).lower())
        if not new:
            return None
        loc = "http://%s%s/repos/%s%s%s" % (
            self.headers.get("Host"), prefix, new, m.group(3),
            "?" + query if query else "")
        status = 301 if self.command == "GET" else 307
        self._send(status, {
            "message": "Moved Permanently" if status == 301
            else "Temporary Redirect",
            "url": loc, "documentation_url": DOCS}, {"Location": loc})
        return True

    def _drop(self):
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        if self._entry is not None:
            self._entry["status"] = 0

    def _take_fault(self, method, path):
        st = self.server.state
        with st.lock:
            for f in st.faults:
                if f.get("method", method) == method and re.search(
                        f.get("path", ""), path):
                    # "skip": N lets N such requests through first
                    if f.get("skip", 0) > 0:
                        f["skip"] -= 1
                        continue
                    f["count"] = f.get("count", 1) - 1
                    if f["count"] <= 0:
                        st.faults.remove(f)
                    return f
        return None

    # -- test controls

    def _control(self, what, raw, query):
        st = self.server.state
        body = json.loads(raw) if raw else {}
        with st.lock:
            if what == "seed":
                r = st.repo(body["repo"])
                out = []
                for i in body.get("issues", []):
                    out.append(st.new_issue(r, i.get("title", "t"),
                                            i.get("body"))["number"])
                for _ in range(body.get("comments_on", [None, 0])[1]
                               if body.get("comments_on") else 0):
                    self._add_comment(r, body["comments_on"][0],
                                      "seeded comment")
                return self._send(200, {"numbers": out})
            if what == "merge":
                p = st.repo(body["repo"])["pulls"][body["number"]]
                p.update({"state": "closed", "merged": True,
                          "merged_at": st.tick(), "updated_at": st.tick()})
                return self._send(200, {})
            if what == "edit" and "comment" in body:
                # a comment edited, or deleted, by someone on GitHub
                r = st.repo(body["repo"])
                c = r["comments"][body["comment"]]
                if body.get("delete"):
                    del r["comments"][body["comment"]]
                else:
                    c.update(body["set"])
                    c["updated_at"] = st.tick()
                return self._send(200, {})
            if what == "edit":
                r = st.repo(body["repo"])
                n = body["number"]
                o = r["issues"].get(n) or r["pulls"][n]
                o.update(body["set"])
                o["updated_at"] = st.tick()
                return self._send(200, {})
            if what == "fault" and body.get("clear"):
                st.faults = []
                return self._send(200, {})
            if what == "fault":
                st.faults.append(body)
                return self._send(200, {})
            if what in ("review", "status", "check"):
                return self._send(200, self._ci_control(what, body))
            if what == "rename":
                # {"repo": "o/r", "to": "neworg/r2"}: the same state under
                # the new name; the old one answers 301/307 to it
                old, new = body["repo"].lower(), body["to"].lower()
                st.repos[new] = st.repo(old)
                st.repos[new]["name"] = new
                st.renames[old] = new
                return self._send(200, {})
            if what == "reset":
                st.reset()
                return self._send(200, {})
            if what == "log":
                return self._send(200, st.log)
            if what == "log.txt":
                return self._text("".join(
                    "%s %s %s\n" % (e["method"], e["path"],
                                    e.get("status", "-")) for e in st.log))
            if what == "headers":
                return self._send(200, st.log[int(query["n"][0])]["headers"])
            if what == "body":
                r = st.repo(query["repo"][0])
                i = r["issues"][int(query["number"][0])]
                return self._text(i["body"] or "")
            if what == "comments":
                r = st.repo(query["repo"][0])
                return self._text(json.dumps(
                    [c["body"] for c in r["comments"].values()]))
            if what == "violations.txt":
                return self._text("".join(json.dumps(v) + "\n"
                                          for v in st.violations))
            if what == "violations":
                return self._send(200, st.violations)
            if what == "state":
                r = st.repo(query["repo"][0])
                return self._send(200, {
                    "issues": list(r["issues"].values()),
                    "pulls": list(r["pulls"].values()),
                    "comments": list(r["comments"].values())})
        return self._send(404, {"message": "no such control"})

    def _ci_control(self, what, body):
        """a review, a commit status or a check run on PR number's head"""
        st = self.server.state
        r = st.repo(body["repo"])
        p = r["pulls"][body["number"]]
        sha = p["head"]["sha"]
        now = st.tick()
        if what == "review":
            st.review_id += 1
            v = self.server.spec.example(
                "/repos/{owner}/{repo}/pulls/{pull_number}/reviews", "get",
                "200")[0]
            v.update({"id": st.review_id, "user": self._user(body["user"]),
                      "state": body["state"], "commit_id": sha,
                      "submitted_at": now})
            r["reviews"].setdefault(p["number"], []).append(v)
            p["requested_reviewers"] = [
                u for u in p["requested_reviewers"]
                if u["login"] != body["user"]]
            return {"id": v["id"]}
        if what == "status":
            v = self.server.spec.example(
                "/repos/{owner}/{repo}/commits/{ref}/status", "get",
                "200")["statuses"][0]
            v.update({"state": body["state"], "context": body["context"],
                      "created_at": now, "updated_at": now})
            r["statuses"].setdefault(sha, {})[body["context"]] = v
            return {}
        st.check_id += 1
        v = self.server.spec.example(
            "/repos/{owner}/{repo}/commits/{ref}/check-runs", "get",
            "200")["check_runs"][0]
        done = body.get("status", "completed") == "completed"
        v.update({"id": st.check_id, "name": body["name"], "head_sha": sha,
                  "status": body.get("status", "completed"),
                  "conclusion": body.get("conclusion") if done else None,
                  "completed_at": now if done else None})
        r["checks"].setdefault(sha, {})[body["name"]] = v
        return {"id": v["id"]}

    # -- helpers for the operations

    @staticmethod
    def _query_errors(schema, v):
        """what is wrong with query value v (a string) for schema"""
        t = schema.get("type")
        if t == "integer":
            if not re.match(r"^-?\d+$", v):
                return ["not an integer"]
            return validate(schema, int(v))
        if t == "boolean":
            return [] if v in ("true", "false") else ["not a boolean"]
        return validate(schema, v)

    def _page(self, items, query):
        try:
            per = int(query.get("per_page", ["30"])[0])
            page = int(query.get("page", ["1"])[0])
        except ValueError:
            per, page = 30, 1
        per = max(1, min(per, 100))
        last = max(1, (len(items) + per - 1) // per)
        hdrs = {}
        if last > 1:
            q = dict((k, v[0]) for k, v in query.items())
            host = self.headers.get("Host", "127.0.0.1")
            path = urllib.parse.urlsplit(self.path).path

            def link(p):
                q["page"] = str(p)
                return "<http://%s%s?%s>" % (host, path,
                                             urllib.parse.urlencode(q))
            parts = []
            if page < last:
                parts.append('%s; rel="next"' % link(page + 1))
                parts.append('%s; rel="last"' % link(last))
            if page > 1:
                parts.append('%s; rel="prev"' % link(page - 1))
                parts.append('%s; rel="first"' % link(1))
            hdrs["Link"] = ", ".join(parts)
        return items[(page - 1) * per:page * per], hdrs

    def _repo(self, params):
        return self.server.state.repo("%s/%s" % (params["owner"],
                                                 params["repo"]))

    def _too_long(self, resource, body):
        if body is not None and code_points(body) > MAX_BODY:
            return (422, err_body("Validation Failed", [{
                "resource": resource, "code": "custom", "field": "body",
                "message": "body is too long (maximum is 65536 characters)"
            }]), None)
        return None

    def _add_comment(self, r, number, text):
        st = self.server.state
        st.comment_id += 1
        c = st.spec.example(
            "/repos/{owner}/{repo}/issues/{issue_number}/comments", "post",
            "201")
        now = st.tick()
        c.update({"id": st.comment_id, "body": text, "created_at": now,
                  "updated_at": now,
                  "html_url": "https://github.com/%s/issues/%d#issuecomment"
                  "-%d" % (r["name"], number, st.comment_id),
                  "issue_url": "https://api.github.com/repos/%s/issues/%d" %
                  (r["name"], number)})
        c["_issue"] = number
        r["comments"][c["id"]] = c
        if number in r["issues"]:
            r["issues"][number]["comments"] += 1
        return c

    def _as_issue(self, r, p):
        """PR p as the issues list shows it: an issue with pull_request"""
        i = self.server.spec.example(
            "/repos/{owner}/{repo}/issues/{issue_number}", "get", "200")
        base = "https://api.github.com/repos/%s" % r["name"]
        i.update({"id": 5000 + p["number"], "number": p["number"],
                  "title": p["title"], "body": p["body"],
                  "state": p["state"], "comments": 0,
                  "created_at": p["created_at"],
                  "updated_at": p["updated_at"],
                  "closed_at": p["closed_at"],
                  "url": "%s/issues/%d" % (base, p["number"]),
                  "html_url": p["html_url"],
                  "comments_url": "%s/issues/%d/comments" %
                  (base, p["number"]),
                  "pull_request": {
                      "url": p["url"], "html_url": p["html_url"],
                      "diff_url": p["html_url"] + ".diff",
                      "patch_url": p["html_url"] + ".patch",
                      "merged_at": p["merged_at"]}})
        return i

    @staticmethod
    def _public(c):
        return {k: v for k, v in c.items() if not k.startswith("_")}

    def _simple(self, p):
        schema = self.server.spec.schema("/repos/{owner}/{repo}/pulls",
                                         "get", "200")["items"]
        return {k: v for k, v in p.items() if k in schema["properties"]}

    # -- the operations (called under the state lock)

    def op_issues_get(self, params, query, body):
        r = self._repo(params)
        n = int(params["issue_number"])
        if n in r["issues"]:
            return 200, r["issues"][n], None
        return 404, err_body("Not Found"), None

    def op_issues_update(self, params, query, body):
        r = self._repo(params)
        n = int(params["issue_number"])
        if n not in r["issues"]:
            return 404, err_body("Not Found"), None
        bad = self._too_long("Issue", body.get("body"))
        if bad:
            return bad
        i = r["issues"][n]
        for k in ("title", "body", "state"):
            if k in body:
                i[k] = body[k]
        i["updated_at"] = self.server.state.tick()
        return 200, i, None

    def op_issues_create(self, params, query, body):
        if "title" not in body:
            return 422, err_body("Validation Failed", [{
                "resource": "Issue", "code": "missing_field",
                "field": "title"}]), None
        bad = self._too_long("Issue", body.get("body"))
        if bad:
            return bad
        r = self._repo(params)
        i = self.server.state.new_issue(r, str(body["title"]),
                                        body.get("body"))
        return 201, i, {"Location": i["url"]}

    def op_issues_list_comments(self, params, query, body):
        r = self._repo(params)
        n = int(params["issue_number"])
        if n not in r["issues"] and n not in r["pulls"]:
            return 404, err_body("Not Found"), None
        items = [self._public(c) for c in r["comments"].values()
                 if c["_issue"] == n]
        items, hdrs = self._page(items, query)
        return 200, items, hdrs

    def op_issues_create_comment(self, params, query, body):
        r = self._repo(params)
        n = int(params["issue_number"])
        if n not in r["issues"] and n not in r["pulls"]:
            return 404, err_body("Not Found"), None
        bad = self._too_long("IssueComment", body.get("body"))
        if bad:
            return bad
        c = self._add_comment(r, n, body["body"])
        return 201, self._public(c), {"Location": c["url"]}

    def op_issues_get_comment(self, params, query, body):
        c = self._repo(params)["comments"].get(int(params["comment_id"]))
        if not c:
            return 404, err_body("Not Found"), None
        return 200, self._public(c), None

    def op_issues_update_comment(self, params, query, body):
        r = self._repo(params)
        c = r["comments"].get(int(params["comment_id"]))
        if not c:
            return 404, err_body("Not Found"), None
        bad = self._too_long("IssueComment", body.get("body"))
        if bad:
            return bad
        c["body"] = body["body"]
        c["updated_at"] = self.server.state.tick()
        return 200, self._public(c), None

    def op_pulls_list(self, params, query, body):
        r = self._repo(params)
        items = sorted(r["pulls"].values(), key=lambda p: -p["number"])
        state = query.get("state", ["open"])[0]
        if state != "all":
            items = [p for p in items if p["state"] == state]
        head = query.get("head", [None])[0]
        # a head without "owner:" is ignored, as GitHub does
        if head and ":" in head:
            items = [p for p in items if p["head"]["label"] == head]
        if "base" in query:
            items = [p for p in items if p["base"]["ref"] == query["base"][0]]
        items, hdrs = self._page([self._simple(p) for p in items], query)
        return 200, items, hdrs

    def op_pulls_get(self, params, query, body):
        p = self._repo(params)["pulls"].get(int(params["pull_number"]))
        if not p:
            return 404, err_body("Not Found"), None
        return 200, p, None

    def op_pulls_create(self, params, query, body):
        r = self._repo(params)
        for f in ("head", "base", "title"):
            if f not in body:
                return 422, err_body("Validation Failed", [{
                    "resource": "PullRequest", "code": "missing_field",
                    "field": f}]), None
        base = body["base"]
        if base.startswith("refs/"):
            return 422, err_body("Validation Failed", [{
                "resource": "PullRequest", "code": "invalid",
                "field": "base", "message": "Proposed base branch '%s' is "
                "invalid" % base}]), None
        head = body["head"].split(":")[-1]
        owner = r["name"].split("/")[0]
        for p in r["pulls"].values():
            if p["head"]["ref"] == head and p["state"] == "open":
                return 422, err_body("Validation Failed", [{
                    "resource": "PullRequest", "code": "custom",
                    "message": "A pull request already exists for %s:%s." %
                    (owner, head)}]), None
        bad = self._too_long("PullRequest", body.get("body"))
        if bad:
            return bad
        p = self.server.state.new_pr(r, head, base, body["title"],
                                     body.get("body"), body.get("draft"))
        return 201, p, {"Location": p["url"]}

    def op_pulls_update(self, params, query, body):
        r = self._repo(params)
        p = r["pulls"].get(int(params["pull_number"]))
        if not p:
            return 404, err_body("Not Found"), None
        if "base" in body and p["state"] == "closed":
            return 422, err_body("Validation Failed", [{
                "resource": "PullRequest", "code": "invalid",
                "field": "base", "message": "Cannot change the base branch "
                "of a closed pull request."}]), None
        bad = self._too_long("PullRequest", body.get("body"))
        if bad:
            return bad
        for k in ("title", "body", "state"):
            if k in body:
                p[k] = body[k]
        if "base" in body:
            p["base"] = dict(p["base"], ref=body["base"],
                             label="%s:%s" % (r["name"].split("/")[0],
                                              body["base"]))
        p["updated_at"] = self.server.state.tick()
        return 200, p, None

    def op_issues_list_for_repo(self, params, query, body):
        r = self._repo(params)
        # PRs are issues too, in the same number sequence
        items = list(r["issues"].values()) + [self._as_issue(r, p)
                                               for p in r["pulls"].values()]
        state = query.get("state", ["open"])[0]
        if state != "all":
            items = [i for i in items if i["state"] == state]
        if "since" in query:
            items = [i for i in items if i["updated_at"] >=
                     query["since"][0]]
        key = {"created": "number", "updated": "updated_at",
               "comments": "comments"}[query.get("sort", ["created"])[0]]
        items.sort(key=lambda i: (i[key], i["number"]),
                   reverse=query.get("direction", ["desc"])[0] == "desc")
        items, hdrs = self._page(items, query)
        return 200, items, hdrs

    def _pull(self, params):
        r = self._repo(params)
        return r, r["pulls"].get(int(params["pull_number"]))

    def op_pulls_list_reviews(self, params, query, body):
        r, p = self._pull(params)
        if not p:
            return 404, err_body("Not Found"), None
        items, hdrs = self._page(list(r["reviews"].get(p["number"], [])),
                                 query)
        return 200, items, hdrs

    def op_pulls_request_reviewers(self, params, query, body):
        r, p = self._pull(params)
        if not p:
            return 404, err_body("Not Found"), None
        for login in body.get("reviewers", []):
            if login == p["user"]["login"]:
                return 422, err_body(
                    "Reviews may only be requested from collaborators. "
                    "One or more of the users or teams you specified is "
                    "not a collaborator of the %s repository." %
                    r["name"]), None
        have = {u["login"] for u in p["requested_reviewers"]}
        for login in body.get("reviewers", []):
            if login not in have:
                p["requested_reviewers"].append(self._user(login))
                have.add(login)
        p["updated_at"] = self.server.state.tick()
        return 201, p, None

    def op_issues_add_labels(self, params, query, body):
        r = self._repo(params)
        n = int(params["issue_number"])
        o = r["pulls"].get(n) or r["issues"].get(n)
        if o is None:
            return 404, err_body("Not Found"), None
        names = body.get("labels", []) if isinstance(body, dict) else body
        labels = o.setdefault("labels", [])
        have = {lb["name"] for lb in labels}
        for name in names:
            name = name if isinstance(name, str) else name["name"]
            if name not in have:
                lb = self.server.spec.example(
                    "/repos/{owner}/{repo}/issues/{issue_number}/labels",
                    "post", "200")[0]
                lb.update({"name": name, "id": 208000000 + len(have),
                           "default": False,
                           "url": "https://api.github.com/repos/%s/labels/"
                           "%s" % (r["name"], urllib.parse.quote(name))})
                labels.append(lb)
                have.add(name)
        o["updated_at"] = self.server.state.tick()
        return 200, labels, None

    def _ref_pr(self, r, ref):
        for p in r["pulls"].values():
            if ref in (p["head"]["sha"], p["head"]["ref"]):
                return p
        return None

    def op_repos_get_combined_status_for_ref(self, params, query, body):
        r = self._repo(params)
        p = self._ref_pr(r, params["ref"])
        if p is None:
            return 422, err_body("No commit found for SHA: %s" %
                                 params["ref"]), None
        sha = p["head"]["sha"]
        latest = list(r["statuses"].get(sha, {}).values())
        states = {st["state"] for st in latest}
        # GitHub's rule: failure over pending over success; none: pending
        if states & {"error", "failure"}:
            state = "failure"
        elif "pending" in states or not latest:
            state = "pending"
        else:
            state = "success"
        out = self.server.spec.example(
            "/repos/{owner}/{repo}/commits/{ref}/status", "get", "200")
        base = "https://api.github.com/repos/%s" % r["name"]
        out.update({"state": state, "sha": sha, "statuses": latest,
                    "total_count": len(latest),
                    "commit_url": "%s/commits/%s" % (base, sha),
                    "url": "%s/commits/%s/status" % (base, sha)})
        return 200, out, None

    def op_checks_list_for_ref(self, params, query, body):
        r = self._repo(params)
        p = self._ref_pr(r, params["ref"])
        if p is None:
            return 422, err_body("No commit found for SHA: %s" %
                                 params["ref"]), None
        runs = list(r["checks"].get(p["head"]["sha"], {}).values())
        page, hdrs = self._page(runs, query)
        return 200, {"total_count": len(runs), "check_runs": page}, hdrs

    def _user(self, login):
        u = self.server.spec.example("/user", "get", "200")
        return {k: (login if k == "login" else v) for k, v in u.items()
                if k in ("login", "id", "node_id", "avatar_url",
                         "gravatar_id", "url", "html_url", "followers_url",
                         "following_url", "gists_url", "starred_url",
                         "subscriptions_url", "organizations_url",
                         "repos_url", "events_url", "received_events_url",
                         "type", "site_admin")}

    def op_repos_get(self, params, query, body):
        return 200, self.server.spec.example("/repos/{owner}/{repo}", "get",
                                             "200"), None

    def op_users_get_authenticated(self, params, query, body):
        return 200, self.server.spec.example("/user", "get", "200"), None

    def op_rate_limit_get(self, params, query, body):
        return 200, self.server.spec.example("/rate_limit", "get",
                                             "200"), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file")
    ap.add_argument("--prefix", default=os.environ.get("API_PREFIX", ""))
    ap.add_argument("--token", default="test-token")
    ap.add_argument("--violations")
    a = ap.parse_args()
    srv = ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    srv.daemon_threads = True
    srv.spec = Spec(SPEC_FILE)
    srv.state = State(srv.spec, "127.0.0.1")
    srv.prefix = a.prefix.rstrip("/")
    srv.token = a.token
    srv.violations_file = a.violations
    port = srv.server_address[1]
    if a.port_file:
        with open(a.port_file + ".tmp", "w") as f:
            f.write("%d\n" % port)
        os.rename(a.port_file + ".tmp", a.port_file)
    else:
        print(port, flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())

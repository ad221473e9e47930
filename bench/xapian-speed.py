# The Xapian side of bench/query-speed.ts: runs each query of stdin (JSON lines {"stream", "query",
# "any"}) against an omindex database in-process, as Omega asks it (English stemming, STEM_SOME, the
# query parser's default flags, AND unless "any", `site:` as Omega's H prefix), and prints one JSON
# object: per stream, the milliseconds of each query (parse + top 10 + the 10 documents' data).
# With a second argument N, each query is run N times and its fastest time kept (the bench's --repeat).
# Run by the bench with Debian's /usr/bin/python3 (python3-xapian).
import json
import sys
import time

import xapian

db = xapian.Database(sys.argv[1])
enquire = xapian.Enquire(db)
qp = xapian.QueryParser()
qp.set_stemmer(xapian.Stem("english"))
qp.set_stemming_strategy(xapian.QueryParser.STEM_SOME)
qp.set_database(db)
qp.add_boolean_prefix("site", "H")
flags = xapian.QueryParser.FLAG_DEFAULT
repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 1

out = {}
totals = {}
for line in sys.stdin:
    item = json.loads(line)
    # Omega's H terms are host names without the port.
    text = item["query"].replace(":8082", "").replace(":8081", "").replace(":8083", "")
    elapsed = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        qp.set_default_op(xapian.Query.OP_OR if item["any"] else xapian.Query.OP_AND)
        enquire.set_query(qp.parse_query(text, flags))
        mset = enquire.get_mset(0, 10)
        for m in mset:
            m.document.get_data()
        elapsed = min(elapsed, (time.perf_counter() - started) * 1000)
    out.setdefault(item["stream"], []).append(elapsed)
    totals.setdefault(item["stream"], []).append(mset.get_matches_estimated())
print(json.dumps({"ms": out, "estimated": totals}))

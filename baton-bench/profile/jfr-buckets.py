#!/usr/bin/env python3
"""Buckets JFR execution samples by the leaf-most frame that belongs to a known library or to Baton (JDK frames are
charged to the library or Baton code that called them), with the top Baton caller of each bucket.
usage: jfr-buckets.py samples.json (from jfr print --json --stack-depth 300 --events jdk.ExecutionSample)"""
import json, sys
from collections import Counter, defaultdict
ev = json.load(open(sys.argv[1]))['recording']['events']
B = [('com.knuddels.jtokkit', 'jtokkit token counting'), ('org.sqlite', 'SQLite JDBC + native'),
     ('org.postgresql', 'PostgreSQL JDBC'), ('com.zaxxer.hikari', 'HikariCP'),
     ('ch.qos.logback', 'logging'), ('net.logstash', 'logging'), ('org.slf4j', 'logging'),
     ('com.nimbusds', 'JWT / crypto'), ('io.micrometer', 'Micrometer'), ('com.networknt', 'JSON schema validation'),
     ('dev.langchain4j', 'LangChain4j'), ('kotlin', 'Javalin/Jetty'),
     ('jdk.internal.net.http', 'JDK HttpClient'), ('java.net.http', 'JDK HttpClient'),
     ('com.fasterxml.jackson', 'Jackson'), ('tools.jackson', 'Jackson'),
     ('io.github.bucket4j', 'Bucket4j'), ('io.github.resilience4j', 'Resilience4j'),
     ('org.eclipse.jetty', 'Javalin/Jetty'), ('io.javalin', 'Javalin/Jetty'), ('dev.baton', 'Baton code')]
cnt, callers, n = Counter(), defaultdict(Counter), 0
for e in ev:
    st = e['values'].get('stackTrace')
    if not st or not st.get('frames'): continue
    n += 1
    fr = [(f['method']['type']['name'].replace('/', '.'), f['method']['name']) for f in st['frames']]
    label = 'JDK only (scheduler, selector, GC-free JDK work)'
    for c, m in fr:
        hit = next((l for p, l in B if c.startswith(p)), None)
        if hit: label = hit; break
    cnt[label] += 1
    bc = next((f'{c.split(".")[-1]}.{m}' for c, m in fr if c.startswith('dev.baton')), '(no Baton frame)')
    callers[label][bc] += 1
print(f'{n} samples')
print('| bucket (leaf-most library frame) | share | top Baton callers |\n|---|---:|---|')
for l, c in cnt.most_common():
    top = ', '.join(f'{k} {100*v/c:.0f}%' for k, v in callers[l].most_common(3))
    print(f'| {l} | {100*c/n:.1f}% | {top} |')

#!/usr/bin/env python3
"""Shares of an async-profiler profile (collapsed stacks with thread names as root frames): by thread group, then
the application threads' samples by library — each sample charged to the leaf-most frame of a known library or of
Baton, native frames (SQLite's C code, system calls) to the Java frame that called them — with the Baton callers
behind each bucket, and what SQLite's share is made of.
usage: collapsed-buckets.py profile.collapsed"""
import re, sys
from collections import Counter, defaultdict

LIBRARIES = [('dev/baton/', 'Baton code'), ('org/sqlite/', 'SQLite JDBC + native'),
             ('com/fasterxml/jackson/', 'Jackson'), ('tools/jackson/', 'Jackson 3 (JSON log encoder, MCP SDK)'),
             ('org/eclipse/jetty/', 'Javalin/Jetty'), ('io/javalin/', 'Javalin/Jetty'), ('kotlin/', 'Javalin/Jetty'),
             ('jdk/internal/net/http/', 'JDK HttpClient'), ('java/net/http/', 'JDK HttpClient'),
             ('dev/langchain4j/', 'LangChain4j'), ('ch/qos/logback/', 'logging'), ('net/logstash/', 'logging'),
             ('io/micrometer/', 'Micrometer'), ('com/networknt/', 'JSON schema validation'),
             ('com/zaxxer/hikari/', 'HikariCP'), ('com/nimbusds/', 'JWT'), ('io/github/resilience4j/', 'Resilience4j'),
             ('io/github/bucket4j/', 'Bucket4j'), ('com/github/benmanes/caffeine/', 'Caffeine'),
             ('io/opentelemetry/', 'OpenTelemetry'), ('com/knuddels/jtokkit/', 'jtokkit')]
APPLICATION = ('ForkJoinPool-', 'HttpClient-')  # virtual-thread carriers and the JDK client's own threads
PASS_THROUGH = ('$$Lambda', 'StatementCachingDataSource')  # Baton frames that only hand a call on


def library(frame):
    return next((name for prefix, name in LIBRARIES if frame.startswith(prefix)), None)


threads, buckets, callers, sqlite = Counter(), Counter(), defaultdict(Counter), Counter()
total = 0
for line in open(sys.argv[1]):
    stack, count = line.rsplit(' ', 1)
    count, frames = int(count), stack.split(';')
    total += count
    thread = re.sub(r'\d+', '#', frames[0].strip('[]').split(' tid=')[0])
    threads[thread] += count
    if not thread.startswith(APPLICATION):
        continue
    bucket = next((library(f) for f in reversed(frames) if library(f)), 'JDK only (scheduler, selector, I/O)')
    buckets[bucket] += count
    caller = next((f for f in reversed(frames) if f.startswith('dev/baton/') and not any(p in f for p in PASS_THROUGH)), None)
    if caller and bucket != 'Baton code':
        callers[bucket][caller.split('/')[-1]] += count
    if bucket == 'SQLite JDBC + native':
        native = next((f.split('.')[-1] for f in reversed(frames) if f.startswith('org/sqlite/core/NativeDB')), '?')
        commit = any(f.endswith('Database.exec') for f in frames)
        sqlite['BEGIN/COMMIT' if commit else native] += count

share = lambda n: f'{100 * n / total:5.1f}%'
print(f'{total} samples')
print('| thread group | share |\n|---|---:|')
for name, n in threads.most_common(8):
    print(f'| {name} | {share(n)} |')
print('\n| bucket (application threads; leaf-most library frame) | share | top Baton callers |\n|---|---:|---|')
for name, n in buckets.most_common(16):
    top = ', '.join(f'{c} {100 * k / n:.0f}%' for c, k in callers[name].most_common(3))
    print(f'| {name} | {share(n)} | {top} |')
if sqlite:
    print('\nSQLite: ' + ', '.join(f'{k} {share(n).strip()}' for k, n in sqlite.most_common(5)))

#!/usr/bin/env python3
"""Prints docs/rules.md: each rule of shared/reference/dat-rules.md with the tests named after it (ruleN_...).

Run from anywhere: python3 docs/rules-table.py > docs/rules.md (shared/ must sit beside the repository)."""
import collections
import glob
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES = os.path.join(os.path.dirname(ROOT), 'shared', 'reference', 'dat-rules.md')

# Rules not implemented yet, and why; and the examples that show a rule.
MISSING = {}  # every rule is modelled now (18, the last, since the IB atomics extension)
EXAMPLES = {2: 'send-after-read-*.json', 17: 'send-after-read-fence.json', 19: 'send-after-read-no-fence.json',
            23: 'rmr-context-after-send.json', 24: 'rmr-context-too-early.json',
            25: 'rmr-old-context-after-rebind.json', 32: 'stale-read-cpu-noncoherent.json',
            38: 'write-then-send.json', 51: 'write-then-send.json', 43: 'flush-on-disconnect.json',
            40: 'flush-on-disconnect.json', 47: 'protection-zone-violation.json', 48: 'privilege-violation.json',
            8: 'evd-overflow.json'}

rules = {}
for line in open(RULES, encoding='utf-8'):
    m = re.match(r'^(\d+)\. (.*)', line)
    if m:
        first = re.split(r'(?<=[.])\s', m.group(2))[0]
        first = re.sub(r'\s*\[.*$', '', first).strip()
        rules[int(m.group(1))] = first[:110] + ('...' if len(first) > 110 else '')

tests = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(ROOT, '*', 'src', 'test', 'java', '**', '*.java'), recursive=True)):
    cls = os.path.basename(f)[:-5]
    for m in re.finditer(r'void (rule(\d+)_\w+)\(', open(f, encoding='utf-8').read()):
        tests[int(m.group(2))].append(f'{cls}.{m.group(1)}')

print('# DAT rules and the tests that check them\n')
print('Each numbered rule of `shared/reference/dat-rules.md`, with the tests named after it (`ruleN_...`). Examples in')
print('`scenarios/examples/` run as tests too and are listed where they show a rule. Regenerate the table with')
print('`python3 docs/rules-table.py > docs/rules.md`.\n')
print('| rule | what it says (first sentence) | tests |')
print('|---|---|---|')
for n in sorted(rules):
    cell = '<br>'.join(tests.get(n, []))
    if n in EXAMPLES:
        cell = (cell + '<br>' if cell else '') + 'example ' + EXAMPLES[n]
    print(f'| {n} | {rules[n].replace("|", "/")} | {cell or MISSING.get(n, "")} |')

#!/usr/bin/python3
"""Extracts the statements one client session sent from a PostgreSQL log.

The server must run with log_statement=all and log_line_prefix='%c|%a|'
(session id, application_name). Usage:

    extract_log.py LOG APPLICATION_NAME > out.sql

Each statement is written after a "-- statement N" line; statements of the
extended protocol also get a "-- parameters: ..." line when the server
logged parameters for them.
"""
import re
import sys

ENTRY = re.compile(r'^([0-9a-f]+\.[0-9a-f]+)\|([^|]*)\|(\w+):  (.*)$')


def entries(path):
    cur = None
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = ENTRY.match(line)
            if m:
                if cur:
                    yield cur
                cur = {'app': m.group(2), 'level': m.group(3), 'text': m.group(4)}
            elif cur is not None:
                # The server starts a statement's continuation lines
                # with a tab.
                cur['text'] += '\n' + (line[1:] if line.startswith('\t') else line)
    if cur:
        yield cur


def main():
    path, app = sys.argv[1], sys.argv[2]
    out = []
    for e in entries(path):
        if e['app'] != app:
            continue
        t = e['text']
        if e['level'] == 'LOG':
            m = re.match(r'^(statement|execute [^:]*): (.*)$', t, re.S)
            if m:
                out.append({'sql': m.group(2).strip(), 'params': None, 'how': m.group(1)})
        elif e['level'] == 'DETAIL' and t.startswith('parameters: ') and out:
            out[-1]['params'] = t[len('parameters: '):]
    for i, s in enumerate(out, 1):
        print('-- statement %d (%s)' % (i, 'simple query' if s['how'] == 'statement' else 'extended protocol: ' + s['how']))
        if s['params']:
            print('-- parameters: ' + s['params'])
        sql = s['sql']
        if not sql.endswith(';'):
            sql += ';'
        print(sql)
        print()


if __name__ == '__main__':
    main()

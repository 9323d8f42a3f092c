#!/usr/bin/env python3
"""A burst of concurrent logins against a fresh server: how long they take and how far the
server's memory rises (peak RSS from /proc, `VmHWM`). Argon2id needs 19 MiB a hash; the server
runs at most `CONCURRENT_HASHES` at once, so a burst costs time, not memory.

Usage: scripts/bench-logins.py [--binary target/release/backend] [--accounts 100] [--logins 300]
Registers the accounts (codes from the dev outbox), then sends all logins at once (each account
gets logins/accounts of them, within the per-account in-flight limit) and prints a RESULT line.
"""
import argparse, concurrent.futures, json, os, re, shutil, subprocess, tempfile, time, urllib.request

parser = argparse.ArgumentParser()
parser.add_argument('--binary', default='target/release/backend')
parser.add_argument('--accounts', type=int, default=100)
parser.add_argument('--logins', type=int, default=300)
parser.add_argument('--port', type=int, default=18099)
args = parser.parse_args()

data = tempfile.mkdtemp(prefix='bench-logins-')
env = dict(os.environ, EXCHANGE_PORT=str(args.port), EXCHANGE_HOST='127.0.0.1', EXCHANGE_DATA_DIR=data,
           EXCHANGE_WEBAPP_DIR=os.path.abspath('webapp/dist'), EXCHANGE_LOG='warn',
           EXCHANGE_CODE_RESEND_SECS='1', EXCHANGE_CODES_PER_IP_HOUR='1000000')
server = subprocess.Popen([args.binary, 'serve'], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
base = f'http://127.0.0.1:{args.port}'


def call(path, body=None):
    request = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                     headers={'Content-Type': 'application/json'})
    with urllib.request.urlopen(request, timeout=300) as answer:
        return json.loads(answer.read())


def memory():
    status = open(f'/proc/{server.pid}/status').read()
    return {key: int(re.search(key + r':\s+(\d+)', status).group(1)) // 1024 for key in ('VmRSS', 'VmHWM')}


try:
    for _ in range(200):
        try:
            urllib.request.urlopen(base + '/platform/dev/config.js', timeout=2)
            break
        except Exception:
            time.sleep(0.25)
    accounts = [f'burst{i}@example.com' for i in range(args.accounts)]
    for account in accounts:
        call('/api/user/sendEmailCode', {'account': account, 'type': 'register'})
        body = call('/api/dev/outbox?to=' + account)['data'][0]['body']
        code = re.search(r'\b(\d{6})\b', body).group(1)
        call('/api/user/register', {'account': account, 'password': 'Secret123', 'confirmPassword': 'Secret123', 'code': code})
    before = memory()

    def login(i):
        try:
            return call('/api/user/login', {'account': accounts[i % len(accounts)], 'password': 'Secret123'})['code']
        except Exception as error:
            return type(error).__name__

    started = time.time()
    with concurrent.futures.ThreadPoolExecutor(args.logins) as pool:
        answers = list(pool.map(login, range(args.logins)))
    seconds = time.time() - started
    after = memory()
    counts = {str(answer): answers.count(answer) for answer in set(answers)}
    print(f'{args.logins} concurrent logins over {args.accounts} accounts: {seconds:.1f} s, answers {counts}')
    print(f'RSS before {before["VmRSS"]} MiB (peak so far {before["VmHWM"]} MiB); peak during {after["VmHWM"]} MiB; after {after["VmRSS"]} MiB')
    print('RESULT ' + json.dumps({'logins': args.logins, 'seconds': round(seconds, 1), 'answers': counts,
                                   'rssBeforeMiB': before['VmRSS'], 'peakMiB': after['VmHWM'], 'rssAfterMiB': after['VmRSS']}))
finally:
    server.terminate()
    server.wait()
    shutil.rmtree(data, ignore_errors=True)

#!/usr/bin/python3
# One warm LibreOffice instance of the pool (docs/office.md "The pool"), run by the tool supervisor as a `pooled`
# process inside the bubblewrap sandbox (src/tools/libreoffice.ts): it starts soffice with a fresh profile in its home,
# connects to it over a UNO pipe (the sandbox has no network, so no TCP socket), prints "ready", then answers one JSON
# line per JSON request line on stdin:
#   {"input", "output", "importFilter", "exportFilter", "filterData", "sheets", "password"?}
#   -> {"ok": true} | {"ok": false, "error": "...", "kind": "load" | "sheet" | "convert" | "instance"}
# A document that cannot be loaded or converted is an error answer, never a dead process; when soffice itself is gone
# (crashed, killed) the answer says "instance" and the helper exits, so that the supervisor starts a fresh one.
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time

import uno
from com.sun.star.beans import PropertyValue

# PDFSERVICE_OFFICE_PROGRAM, passed by src/tools/libreoffice.ts as SOFFICE_PROGRAM.
SOFFICE = os.environ.get('SOFFICE_PROGRAM') or '/usr/lib/libreoffice/program/soffice'
SETTINGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'registrymodifications.xcu')
CONNECT_SECONDS = 120


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def start():
    home = os.environ['HOME']
    # A fresh profile at every start: a previous instance in this home may have died mid-write.
    profile = os.path.join(home, 'profile')
    shutil.rmtree(profile, ignore_errors=True)
    os.makedirs(os.path.join(profile, 'user'))
    shutil.copyfile(SETTINGS, os.path.join(profile, 'user', 'registrymodifications.xcu'))
    pipe = 'pdfservice-%d' % os.getpid()
    # soffice's own output goes to our stderr: stdout is the protocol.
    process = subprocess.Popen(
        [SOFFICE, '--headless', '--invisible', '--norestore', '--nologo', '--nodefault', '--nolockcheck',
         '-env:UserInstallation=' + uno.systemPathToFileUrl(profile),
         '--accept=pipe,name=%s;urp;StarOffice.ComponentContext' % pipe],
        stdin=subprocess.DEVNULL, stdout=sys.stderr, stderr=sys.stderr)
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext('com.sun.star.bridge.UnoUrlResolver', local)
    deadline = time.monotonic() + CONNECT_SECONDS
    while True:
        try:
            context = resolver.resolve('uno:pipe,name=%s;urp;StarOffice.ComponentContext' % pipe)
            break
        except Exception:
            if process.poll() is not None:
                sys.exit('soffice ended at start with code %s' % process.returncode)
            if time.monotonic() > deadline:
                sys.exit('soffice did not accept a connection')
            time.sleep(0.1)
    desktop = context.ServiceManager.createInstanceWithContext('com.sun.star.frame.Desktop', context)
    return process, desktop


# The address-space limit every process of the instance has (PDFSERVICE_OFFICE_MEMORY_MB, set by prlimit before this
# helper started; soffice inherits it), or None.
LIMIT = resource.getrlimit(resource.RLIMIT_AS)[0]
LIMIT = None if LIMIT == resource.RLIM_INFINITY else LIMIT
# An allocation that fails near the limit ends the conversion; one this close to it is taken for the limit's doing.
NEAR_LIMIT = 0.8


class MemoryWatch:
    """The largest address space an instance process (soffice.bin) had during the current conversion, sampled from /proc
    (the sandbox's own process namespace: only the instance's processes), since a process that died cannot tell."""

    def __init__(self):
        self.peak = 0
        self.me = os.getpid()
        threading.Thread(target=self.run, daemon=True).start()

    def run(self):
        while True:
            for entry in os.listdir('/proc'):
                if not entry.isdigit() or int(entry) == self.me:
                    continue
                try:
                    with open('/proc/%s/status' % entry) as status:
                        for line in status:
                            if line.startswith('VmSize:'):
                                self.peak = max(self.peak, int(line.split()[1]) * 1024)
                                break
                except OSError:
                    pass
            time.sleep(0.05)

    def exceeded(self):
        return LIMIT is not None and self.peak >= NEAR_LIMIT * LIMIT


def message(err):
    text = getattr(err, 'Message', None) or str(err) or type(err).__name__
    return ' '.join(text.split())[:500]


class Failure(Exception):
    def __init__(self, kind, text):
        super().__init__(text)
        self.kind = kind


def typed(value):
    # JSON gives str, bool, int or float: UNO string, boolean, long or double.
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return uno.Any('long', value)
    return value


def load(desktop, request):
    name, _, options = request['importFilter'].partition(':')
    props = [
        prop('Hidden', True),
        prop('ReadOnly', True),
        prop('MacroExecutionMode', 0),  # NEVER_EXECUTE
        prop('UpdateDocMode', 0),  # NO_UPDATE: links stay as they are
        prop('FilterName', name),
    ]
    if options:
        props.append(prop('FilterOptions', options))
    if request.get('password') is not None:
        props.append(prop('Password', request['password']))
    try:
        document = desktop.loadComponentFromURL(uno.systemPathToFileUrl(request['input']), '_blank', 0, tuple(props))
    except Exception as err:
        raise Failure('load', 'LibreOffice could not load the document: ' + message(err))
    if document is None:
        raise Failure('load', 'LibreOffice could not load the document')
    return document


def apply_sheets(document, sheets):
    if not sheets:
        return
    if not hasattr(document, 'Sheets'):
        raise Failure('sheet', 'The document is not a spreadsheet')
    names = list(document.Sheets.ElementNames)
    only = sheets.get('only')
    if only is not None:
        if only < 1 or only > len(names):
            raise Failure('sheet', 'The document has %d sheet%s; sheet %d does not exist' % (len(names), '' if len(names) == 1 else 's', only))
        for index, sheet_name in enumerate(names):
            if index != only - 1:
                document.Sheets.removeByName(sheet_name)
    if sheets.get('landscape'):
        styles = document.StyleFamilies.getByName('PageStyles')
        used = {document.Sheets.getByName(sheet_name).PageStyle for sheet_name in document.Sheets.ElementNames}
        for style_name in used:
            style = styles.getByName(style_name)
            width, height = style.Width, style.Height
            style.IsLandscape = True
            style.Width, style.Height = max(width, height), min(width, height)


# CELL() and INFO() are recalculated at every load whatever the recalculation setting (LibreOffice marks them so):
# their results are the server's (the file's path, the kernel's version, the working folder), never the document's.
SERVER_FACTS = re.compile(r'\b(?:CELL|INFO)\s*\(', re.IGNORECASE)
FORMULA_CELLS = 16  # com.sun.star.sheet.CellFlags.FORMULA


def neutralise_server_facts(document):
    if not hasattr(document, 'Sheets'):
        return
    for sheet_name in document.Sheets.ElementNames:
        ranges = document.Sheets.getByName(sheet_name).queryContentCells(FORMULA_CELLS)
        cells = ranges.Cells.createEnumeration()
        while cells.hasMoreElements():
            cell = cells.nextElement()
            formula = cell.getFormula()
            if SERVER_FACTS.search(formula):
                # The formula as written, as text: what the cell says, not what the server would answer.
                cell.setString(formula)


def convert(desktop, request):
    document = load(desktop, request)
    try:
        neutralise_server_facts(document)
        apply_sheets(document, request.get('sheets'))
        data = [prop(key, typed(value)) for key, value in (request.get('filterData') or {}).items()]
        props = (prop('FilterName', request['exportFilter']),
                 prop('FilterData', uno.Any('[]com.sun.star.beans.PropertyValue', tuple(data))))
        try:
            document.storeToURL(uno.systemPathToFileUrl(request['output']), props)
        except Exception as err:
            raise Failure('convert', 'LibreOffice could not convert the document: ' + message(err))
    finally:
        try:
            document.close(True)
        except Exception:
            try:
                document.dispose()
            except Exception:
                pass


def healthy(process, desktop):
    if process.poll() is not None:
        return False
    try:
        desktop.getComponents()
        return True
    except Exception:
        return False


def killed(process):
    """Whether soffice ended by SIGKILL: from outside (an operator, the kernel's OOM killer), never what an allocation the
    address-space limit refuses does (soffice then aborts, or carries on). oosplash, which soffice execs, ends with
    128 + the signal that ended soffice.bin (137; an abort or a crash 134). A large document can take the instance past
    NEAR_LIMIT without reaching the limit, and an instance killed then was reported as over its memory limit."""
    try:
        code = process.wait(timeout=2)
    except subprocess.TimeoutExpired:
        return False
    return code in (128 + signal.SIGKILL, -signal.SIGKILL)


def answer(value):
    sys.stdout.write(json.dumps(value) + '\n')
    sys.stdout.flush()


def main():
    process, desktop = start()
    watch = MemoryWatch() if LIMIT is not None else None
    sys.stdout.write('ready\n')
    sys.stdout.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        if watch:
            watch.peak = 0
        try:
            convert(desktop, json.loads(line))
            answer({'ok': True})
            continue
        except Failure as err:
            failure = {'ok': False, 'error': str(err), 'kind': err.kind}
        except Exception as err:
            failure = {'ok': False, 'error': message(err), 'kind': 'convert'}
        alive = healthy(process, desktop)
        if watch and watch.exceeded() and (alive or not killed(process)):
            # Whether soffice died or survived the failed allocation, it is not to be trusted with another document.
            answer({'ok': False, 'kind': 'memory', 'error': 'LibreOffice exceeded the memory limit of %d MB (PDFSERVICE_OFFICE_MEMORY_MB) converting the document (%s)' % (LIMIT // (1024 * 1024), failure['error'])})
            sys.exit(1)
        if not alive:
            failure = {'ok': False, 'error': 'LibreOffice ended while converting the document (%s)' % failure['error'], 'kind': 'instance'}
            answer(failure)
            sys.exit(1)
        answer(failure)


if __name__ == '__main__':
    main()

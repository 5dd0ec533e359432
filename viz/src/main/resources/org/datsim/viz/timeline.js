// datsim timeline viewer: draws the columnar data of #datsim-data on a canvas. No dependencies, no network.
(function () {
    'use strict';
    var started = performance.now();
    var state = window.datsimTimeline = {ready: false, errors: [], frames: 0};
    window.addEventListener('error', function (e) {
        state.errors.push(String(e.message));
        publish();
    });
    var consoleError = console.error;
    console.error = function () {
        state.errors.push(Array.prototype.join.call(arguments, ' '));
        consoleError.apply(console, arguments);
    };

    var D = JSON.parse(document.getElementById('datsim-data').textContent);
    var S = D.strings;
    var L = D.lanes, nL = L.name.length;
    var O = D.ops, nO = O.id.length;
    var SP = D.spans, nS = SP.lane.length;
    var M = D.marks, nM = M.lane.length;
    var A = D.arrows, nA = A.t.length;
    var P = D.ports || {lane: [], t: [], queue: [], paused: []}, nP = P.lane.length;

    // Sizes (px) of the compact layout; layout() scales them up (at most MAX_SCALE times) when the lanes shown would
    // not fill the page.
    var LABEL_W = 170, AXIS_H = 26, PAD = 2;
    var BASE = {row: 12, mark: 8, span: 5, port: 22, host: 15}, MAX_SCALE = 4;
    var ROW_H = BASE.row, MARK_H = BASE.mark, SPAN_H = BASE.span, PORT_H = BASE.port, HOST_H = BASE.host;
    var PAUSE = '#f16913'; // orange: PFC holds the port paused
    var COLORS = {send: '#1f77b4', recv: '#2ca02c', rdma_write: '#ff7f0e', rdma_read: '#9467bd',
        rmr_bind: '#17becf'};
    var RED = '#d62728';
    var RETRANSMIT = '#c51b7d'; // magenta: a go-back-N retransmission (red is for errors and stale reads)
    var INLINE = '#01665e'; // dark teal: an inline post, its payload copied by the CPU at the post
    var DROP = '#54278f'; // dark purple: a packet a switch dropped (recovered by the transport: no error)

    function str(i) {
        return i < 0 ? '' : S[i];
    }

    // Absolute times (ps) of every phase; NaN where the phase did not happen.
    var PH = ['start', 'tx_start', 'tx_end', 'place', 'complete', 'dequeue'];
    var T = {post: new Float64Array(nO)};
    var t0 = new Float64Array(nO), t1 = new Float64Array(nO);
    PH.forEach(function (p) {
        T[p] = new Float64Array(nO);
    });
    var i, k;
    for (i = 0; i < nO; i++) {
        var base = O.post[i];
        T.post[i] = base < 0 ? NaN : base;
        var lo = base < 0 ? Infinity : base, hi = base < 0 ? -Infinity : base;
        for (k = 0; k < PH.length; k++) {
            var v = O[PH[k]][i];
            var a = v < 0 ? NaN : (base < 0 ? v : base + v);
            T[PH[k]][i] = a;
            if (a === a) {
                lo = Math.min(lo, a);
                hi = Math.max(hi, a);
            }
        }
        t0[i] = lo === Infinity ? 0 : lo;
        t1[i] = hi === -Infinity ? t0[i] : hi;
    }
    var bad = new Uint8Array(nO);
    for (i = 0; i < nO; i++) {
        var st = str(O.status[i]);
        bad[i] = st !== '' && st !== 'DAT_DTO_SUCCESS' ? 1 : 0;
    }

    // Groups: a host's lanes (its CPU, its endpoints, its ports) or a switch's ports; a group collapses to its first
    // lane. The filter shows the lanes whose name (or whose group's name) contains its text; a group's first lane is
    // shown whenever any of its lanes is.
    var groupOf = new Int32Array(nL), groupNames = [], groupFirst = [], groupSize = [];
    (function () {
        var byName = {};
        for (var g = 0; g < nL; g++) {
            var key = L.host[g];
            if (byName[key] === undefined) {
                byName[key] = groupNames.length;
                groupNames.push(key);
                groupFirst.push(g);
                groupSize.push(0);
            }
            groupOf[g] = byName[key];
            groupSize[byName[key]]++;
        }
    }());
    var collapsed = {}; // group name -> true
    var filterText = '';
    var shown = new Uint8Array(nL);

    // Lane layout: hidden lanes have no height. Rows grow (up to MAX_ROW_H) so that few lanes fill the page.
    var laneY = new Float64Array(nL + 1), laneH = new Float64Array(nL);
    var totalH = 0;

    function laneHeight(l) {
        if (isHead(l)) {
            return HOST_H;
        }
        if (L.kind[l] === 'port') {
            return PORT_H + 2 * PAD;
        }
        return PAD + MARK_H + L.rows[l] * ROW_H + SPAN_H + PAD;
    }

    /** A node's heading lane: a host's (its CPU) or a switch's. */
    function isHead(l) {
        return L.kind[l] === 'host' || L.kind[l] === 'switch';
    }

    /** A lane's label as drawn (the filter matches it): "host A", "switch S", "  port A->S", "  A/ep". */
    function laneLabel(l) {
        return isHead(l) ? L.kind[l] + ' ' + L.name[l] : L.kind[l] === 'port' ? '  port ' + L.name[l]
            : '  ' + L.name[l];
    }

    function computeShown() {
        var f = filterText.toLowerCase();
        var any = new Uint8Array(groupNames.length);
        for (var l = 0; l < nL; l++) {
            var g = groupOf[l];
            var match = f === '' || laneLabel(l).toLowerCase().indexOf(f) >= 0
                || groupNames[g].toLowerCase().indexOf(f) >= 0;
            shown[l] = match && (!collapsed[groupNames[g]] || l === groupFirst[g]) ? 1 : 0;
            if (match) {
                any[g] = 1;
            }
        }
        for (var g2 = 0; g2 < groupNames.length; g2++) {
            if (any[g2]) {
                shown[groupFirst[g2]] = 1;
            }
        }
    }

    function scaleTo(f) {
        ROW_H = Math.floor(BASE.row * f);
        MARK_H = Math.floor(BASE.mark * f);
        SPAN_H = Math.floor(BASE.span * f);
        PORT_H = Math.floor(BASE.port * f);
        HOST_H = Math.floor(BASE.host * f);
    }

    function layout(avail) {
        computeShown();
        scaleTo(1);
        var y0 = 0;
        for (var l = 0; l < nL; l++) {
            if (shown[l]) {
                y0 += laneHeight(l);
            }
        }
        if (avail > y0 && y0 > 0) {
            // fill the page: every size grows alike (PAD stays), so few lanes are drawn larger
            var f = Math.min(MAX_SCALE, (avail - 2) / y0);
            scaleTo(f);
            var y1 = 0;
            for (var l2 = 0; l2 < nL; l2++) {
                y1 += shown[l2] ? laneHeight(l2) : 0;
            }
            while (y1 > avail && f > 1) {
                f -= 0.05;
                scaleTo(Math.max(1, f));
                y1 = 0;
                for (var l3 = 0; l3 < nL; l3++) {
                    y1 += shown[l3] ? laneHeight(l3) : 0;
                }
            }
        }
        var y = 0;
        for (var k = 0; k < nL; k++) {
            laneY[k] = y;
            laneH[k] = shown[k] ? laneHeight(k) : 0;
            y += laneH[k];
        }
        laneY[nL] = y;
        totalH = y;
    }

    /** The y (layout, not screen) of the marks drawn along the top of a lane (a host's: its middle). */
    function markY(lane) {
        return isHead(lane) ? laneY[lane] + laneH[lane] / 2 : laneY[lane] + PAD + MARK_H / 2;
    }

    function rowY(lane, row) {
        return laneY[lane] + PAD + MARK_H + row * ROW_H;
    }

    // Index lists sorted by start time, with the longest duration for culling.
    function group(n, keyOf, startOf, endOf) {
        var buckets = {};
        for (var j = 0; j < n; j++) {
            var key = keyOf(j);
            (buckets[key] = buckets[key] || []).push(j);
        }
        var out = {};
        Object.keys(buckets).forEach(function (key) {
            var list = buckets[key];
            list.sort(function (x, z) {
                return startOf(x) - startOf(z) || x - z;
            });
            var maxDur = 0;
            for (var q = 0; q < list.length; q++) {
                maxDur = Math.max(maxDur, endOf(list[q]) - startOf(list[q]));
            }
            out[key] = {idx: Int32Array.from(list), starts: Float64Array.from(list.map(startOf)), maxDur: maxDur};
        });
        return out;
    }

    var opRows = group(nO, function (j) {
        return O.lane[j] * 64 + O.row[j];
    }, function (j) {
        return t0[j];
    }, function (j) {
        return t1[j];
    });
    var spanLanes = group(nS, function (j) {
        return SP.lane[j];
    }, function (j) {
        return SP.t0[j];
    }, function (j) {
        return SP.t1[j];
    });
    var markLanes = group(nM, function (j) {
        return M.lane[j];
    }, function (j) {
        return M.t[j];
    }, function (j) {
        return M.t[j];
    });

    // Port lanes: the bytes queued (a step function) and the intervals PFC held the port paused.
    var portSeries = {};
    (function () {
        for (var j = 0; j < nP; j++) {
            var ps = portSeries[P.lane[j]] = portSeries[P.lane[j]] || {qt: [], qv: [], pt: [], pv: [], max: 0, pauses: 0};
            if (P.queue[j] >= 0) {
                ps.qt.push(P.t[j]);
                ps.qv.push(P.queue[j]);
                ps.max = Math.max(ps.max, P.queue[j]);
            }
            if (P.paused[j] >= 0 && (ps.pv.length === 0 || ps.pv[ps.pv.length - 1] !== P.paused[j])) {
                ps.pt.push(P.t[j]);
                ps.pv.push(P.paused[j]);
                ps.pauses += P.paused[j];
            }
        }
    }());
    var pauseCount = 0, portLaneNames = [];
    Object.keys(portSeries).forEach(function (k3) {
        pauseCount += portSeries[k3].pauses;
    });
    for (i = 0; i < nL; i++) {
        if (L.kind[i] === 'port') {
            portLaneNames.push(L.name[i]);
        }
    }

    function fmtBytes(b) {
        return b >= 1048576 ? (Math.round(b / 104857.6) / 10) + ' MiB' : b >= 1024 ? (Math.round(b / 102.4) / 10)
            + ' KiB' : b + ' B';
    }

    function lowerBound(arr, x) {
        var lo2 = 0, hi2 = arr.length;
        while (lo2 < hi2) {
            var mid = (lo2 + hi2) >> 1;
            if (arr[mid] < x) {
                lo2 = mid + 1;
            } else {
                hi2 = mid;
            }
        }
        return lo2;
    }

    // View: x = LABEL_W + (t - view.t) * view.scale; y = AXIS_H + laneTop - view.y.
    var canvas = document.getElementById('cv');
    var ctx = canvas.getContext('2d');
    var wrap = document.getElementById('wrap');
    var tip = document.getElementById('tip');
    var W = 800, H = 600;
    var endPs = Math.max(D.end_ps, 1);
    var view = {t: 0, scale: 1, y: 0};
    // The run's extent: from the first to the last thing drawn (operations, their work on the other side, marks,
    // port changes), not from time 0 (connection setup can take most of a short run).
    var extent = (function () {
        var lo = Infinity, hi = -Infinity, q;
        for (q = 0; q < nO; q++) {
            lo = Math.min(lo, t0[q]);
            hi = Math.max(hi, t1[q]);
        }
        for (q = 0; q < nS; q++) {
            lo = Math.min(lo, SP.t0[q]);
            hi = Math.max(hi, SP.t1[q]);
        }
        for (q = 0; q < nM; q++) {
            if (str(M.kind[q]) !== 'mem_write') {
                lo = Math.min(lo, M.t[q]);
                hi = Math.max(hi, M.t[q]);
            }
        }
        for (q = 0; q < nP; q++) {
            lo = Math.min(lo, P.t[q]);
            hi = Math.max(hi, P.t[q]);
        }
        if (!(hi > lo)) {
            return {from: 0, to: endPs};
        }
        return {from: lo, to: hi};
    }());

    function fit() {
        var span = extent.to - extent.from;
        // a margin before the first event, but never before time 0
        view.t = Math.max(Math.min(0, extent.from), extent.from - span * 0.01);
        view.scale = (W - LABEL_W - 10) / (span * 1.02);
        view.y = 0;
    }

    function resize() {
        var dpr = window.devicePixelRatio || 1;
        W = Math.max(300, wrap.clientWidth);
        H = Math.max(200, wrap.clientHeight);
        canvas.width = Math.round(W * dpr);
        canvas.height = Math.round(H * dpr);
        canvas.style.width = W + 'px';
        canvas.style.height = H + 'px';
        ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    }

    function fmt(ps) {
        var a = Math.abs(ps);
        var units = [[1e12, 's'], [1e9, 'ms'], [1e6, 'us'], [1e3, 'ns'], [1, 'ps']];
        for (var u = 0; u < units.length; u++) {
            if (a >= units[u][0] || u === units.length - 1) {
                var x = ps / units[u][0];
                return (Math.round(x * 1000) / 1000) + ' ' + units[u][1];
            }
        }
        return String(ps);
    }

    function xOf(t) {
        return LABEL_W + (t - view.t) * view.scale;
    }

    function tOf(x) {
        return view.t + (x - LABEL_W) / view.scale;
    }

    function colorOf(j) {
        return bad[j] ? RED : (COLORS[str(O.opcode[j])] || '#7f7f7f');
    }

    var drawn;
    var scheduled = false;

    function request() {
        if (!scheduled) {
            scheduled = true;
            window.requestAnimationFrame(function () {
                scheduled = false;
                draw();
            });
        }
    }

    function drawAxis(tA, tB) {
        var span = (W - LABEL_W) / view.scale;
        var step = Math.pow(10, Math.floor(Math.log10(Math.max(span / 8, 1e-3))));
        [1, 2, 5, 10].some(function (m) {
            if ((step * m) * view.scale >= 80) {
                step *= m;
                return true;
            }
            return false;
        });
        ctx.fillStyle = '#fafafa';
        ctx.fillRect(0, 0, W, AXIS_H);
        ctx.strokeStyle = '#e4e4e4';
        ctx.fillStyle = '#444';
        ctx.font = '11px system-ui, sans-serif';
        ctx.textBaseline = 'middle';
        ctx.beginPath();
        for (var t = Math.ceil(tA / step) * step; t <= tB; t += step) {
            var x = Math.round(xOf(t)) + 0.5;
            ctx.moveTo(x, AXIS_H - 6);
            ctx.lineTo(x, H);
            ctx.fillText(fmt(t), x + 3, AXIS_H / 2);
        }
        ctx.stroke();
        ctx.strokeStyle = '#bbb';
        ctx.beginPath();
        ctx.moveTo(0, AXIS_H - 0.5);
        ctx.lineTo(W, AXIS_H - 0.5);
        ctx.stroke();
    }

    function drawOp(j, yy, x0, x1) {
        var c = colorOf(j);
        var h = ROW_H - 3;
        var xs = function (t) {
            return xOf(t);
        };
        var start = T.start[j], comp = T.complete[j], deq = T.dequeue[j];
        var execStart = start === start ? start : T.post[j];
        var execEnd = comp === comp ? comp : t1[j];
        if (T.post[j] === T.post[j] && execStart > T.post[j]) {
            ctx.fillStyle = '#9a9a9a';
            ctx.fillRect(xs(T.post[j]), yy + h / 2 - 1, xs(execStart) - xs(T.post[j]), 2);
            ctx.fillRect(xs(T.post[j]), yy + 1, 1.5, h - 2);
        }
        ctx.globalAlpha = comp === comp ? 0.9 : 0.45;
        ctx.fillStyle = c;
        ctx.fillRect(xs(execStart), yy, Math.max(1.5, xs(execEnd) - xs(execStart)), h);
        ctx.globalAlpha = 1;
        if (T.tx_start[j] === T.tx_start[j] && T.tx_end[j] === T.tx_end[j]) {
            ctx.fillStyle = 'rgba(0,0,0,0.35)';
            ctx.fillRect(xs(T.tx_start[j]), yy + 3, Math.max(1, xs(T.tx_end[j]) - xs(T.tx_start[j])), h - 6);
        }
        if (T.place[j] === T.place[j]) {
            ctx.fillStyle = '#000';
            ctx.fillRect(xs(T.place[j]) - 1, yy, 2, h);
        }
        if (deq === deq && comp === comp && deq >= comp) {
            ctx.globalAlpha = 0.3;
            ctx.fillStyle = c;
            ctx.fillRect(xs(comp), yy + 2, xs(deq) - xs(comp), h - 4);
            ctx.globalAlpha = 1;
            ctx.fillStyle = '#333';
            ctx.fillRect(xs(deq) - 0.5, yy - 1, 1.5, h + 2);
        }
        if (x1 - x0 > 60) {
            ctx.save();
            ctx.beginPath();
            ctx.rect(Math.max(x0, LABEL_W), yy, x1 - Math.max(x0, LABEL_W), h);
            ctx.clip();
            ctx.fillStyle = '#fff';
            ctx.font = '10px system-ui, sans-serif';
            ctx.fillText('op ' + O.id[j] + ' ' + str(O.opcode[j]), Math.max(xs(execStart), LABEL_W) + 3, yy + h / 2);
            ctx.restore();
        }
    }

    // Marks drawn on their operation's bar rather than along the top of the lane.
    function onBar(kind, j) {
        return (kind === 'fence_wait' || kind === 'credit_wait' || kind === 'retransmit' || kind === 'drop'
            || kind === 'inline') && M.op[j] >= 0;
    }

    /** A left-pointing triangle ("back to this"): a resend. Outlined so that it shows on any bar colour. */
    function backTriangle(x, yy) {
        ctx.fillStyle = RETRANSMIT;
        ctx.beginPath();
        ctx.moveTo(x - 5, yy);
        ctx.lineTo(x + 3, yy - 5);
        ctx.lineTo(x + 3, yy + 5);
        ctx.closePath();
        ctx.fill();
        ctx.strokeStyle = '#fff';
        ctx.lineWidth = 1;
        ctx.stroke();
    }

    function drawMark(j, x, lane) {
        var kind = str(M.kind[j]);
        var yy;
        if (kind === 'retransmit' && M.op[j] >= 0) {
            // A left-pointing triangle ("back to this operation"), outlined so that it shows on any bar colour.
            yy = rowY(lane, O.row[M.op[j]]) + (ROW_H - 3) / 2 - view.y + AXIS_H;
            backTriangle(x, yy);
            drawn.retransmits++;
            return;
        }
        if (kind === 'drop' && M.op[j] >= 0) {
            // A cross on the bar: one of the operation's packets (or a response or ACK to it) was lost in a switch.
            yy = rowY(lane, O.row[M.op[j]]) + (ROW_H - 3) / 2 - view.y + AXIS_H;
            ctx.lineCap = 'round';
            ctx.strokeStyle = '#fff';
            ctx.lineWidth = 3.5;
            cross(x, yy);
            ctx.strokeStyle = DROP;
            ctx.lineWidth = 1.6;
            cross(x, yy);
            ctx.lineCap = 'butt';
            ctx.lineWidth = 1;
            drawn.drops++;
            return;
        }
        if (kind === 'inline' && M.op[j] >= 0) {
            // a teal square with a white "i" at the post: the CPU copied the payload into the work request then
            yy = rowY(lane, O.row[M.op[j]]) + (ROW_H - 3) / 2 - view.y + AXIS_H;
            ctx.fillStyle = INLINE;
            ctx.fillRect(x - 4.5, yy - 4.5, 9, 9);
            ctx.strokeStyle = '#fff';
            ctx.lineWidth = 1;
            ctx.strokeRect(x - 4.5, yy - 4.5, 9, 9);
            ctx.fillStyle = '#fff';
            ctx.fillRect(x - 0.75, yy - 2.5, 1.5, 1.2);
            ctx.fillRect(x - 0.75, yy - 0.5, 1.5, 3.2);
            drawn.inline++;
            return;
        }
        if ((kind === 'fence_wait' || kind === 'credit_wait') && M.op[j] >= 0) {
            yy = rowY(lane, O.row[M.op[j]]) + (ROW_H - 3) / 2 - view.y + AXIS_H;
            ctx.fillStyle = kind === 'fence_wait' ? '#e6550d' : '#756bb1';
            ctx.beginPath();
            ctx.arc(x, yy, 3.5, 0, Math.PI * 2);
            ctx.fill();
            return;
        }
        yy = markY(lane) - view.y + AXIS_H;
        if (kind === 'cm_retry' || kind === 'cm_timeout') {
            // The connection manager sent a REQ, REP or DREQ again (a triangle pointing back, as a retransmission),
            // or gave it up (the triangle against a bar: no more resends). Outlined so that it shows on any colour.
            backTriangle(x, yy);
            if (kind === 'cm_timeout') {
                ctx.fillRect(x - 8, yy - 5, 2, 10);
                drawn.cmTimeouts++;
            } else {
                drawn.cmRetries++;
            }
            return;
        }
        if (M.bad[j]) {
            if (kind === 'stale_payload') {
                drawn.stalePayloads++;
            }
            ctx.fillStyle = RED;
            ctx.beginPath();
            ctx.moveTo(x, yy - 6);
            ctx.lineTo(x + 5, yy);
            ctx.lineTo(x, yy + 6);
            ctx.lineTo(x - 5, yy);
            ctx.closePath();
            ctx.fill();
            ctx.strokeStyle = '#600';
            ctx.lineWidth = 1;
            ctx.stroke();
            return;
        }
        ctx.fillStyle = kind === 'event' ? '#3182bd' : kind === 'rnr_nak' ? '#e6550d' : kind === 'drop' ? DROP
            : '#8a8a8a';
        ctx.fillRect(x - 1, yy - 4, 2, 8);
    }

    function cross(x, y) {
        ctx.beginPath();
        ctx.moveTo(x - 3.5, y - 3.5);
        ctx.lineTo(x + 3.5, y + 3.5);
        ctx.moveTo(x - 3.5, y + 3.5);
        ctx.lineTo(x + 3.5, y - 3.5);
        ctx.stroke();
    }

    function drawArrow(xa, ya, xb, yb, color) {
        ctx.strokeStyle = color;
        ctx.fillStyle = color;
        ctx.lineWidth = 1.3;
        ctx.beginPath();
        ctx.moveTo(xa, ya);
        var mx = (xa + xb) / 2;
        ctx.bezierCurveTo(mx, ya, mx, yb, xb, yb);
        ctx.stroke();
        var ang = Math.atan2(yb - ya, xb - xa);
        if (Math.abs(xb - xa) > 8) {
            ang = xb > xa ? 0 : Math.PI;
        }
        ctx.beginPath();
        ctx.moveTo(xb, yb);
        ctx.lineTo(xb - 7 * Math.cos(ang - 0.45), yb - 7 * Math.sin(ang - 0.45));
        ctx.lineTo(xb - 7 * Math.cos(ang + 0.45), yb - 7 * Math.sin(ang + 0.45));
        ctx.closePath();
        ctx.fill();
        ctx.lineWidth = 1;
    }

    /** A port's lane: orange where PFC held it paused, the bytes queued as a blue step area (scaled to its maximum). */
    function drawPortLane(ln, top, tA, tB) {
        var h = laneH[ln];
        ctx.fillStyle = '#f7fbff';
        ctx.fillRect(LABEL_W, top, W - LABEL_W, h);
        ctx.strokeStyle = '#ddd';
        ctx.beginPath();
        ctx.moveTo(0, Math.round(top + h) - 0.5);
        ctx.lineTo(W, Math.round(top + h) - 0.5);
        ctx.stroke();
        var ps = portSeries[ln];
        if (!ps) {
            return;
        }
        ctx.save();
        ctx.beginPath();
        ctx.rect(LABEL_W, top, W - LABEL_W, h);
        ctx.clip();
        var k, n, x0, x1;
        // pause intervals
        n = ps.pt.length;
        for (k = Math.max(0, lowerBound(ps.pt, tA) - 1); k < n && ps.pt[k] <= tB; k++) {
            if (ps.pv[k] !== 1) {
                continue;
            }
            var end = k + 1 < n ? ps.pt[k + 1] : Math.max(endPs, extent.to);
            x0 = Math.max(LABEL_W, xOf(ps.pt[k]));
            x1 = Math.min(W, xOf(end));
            ctx.globalAlpha = 0.22;
            ctx.fillStyle = PAUSE;
            ctx.fillRect(x0, top + 1, Math.max(1.5, x1 - x0), h - 2);
            ctx.globalAlpha = 1;
            ctx.fillRect(x0, top + h - PAD - 3, Math.max(1.5, x1 - x0), 3);
            drawn.pauseBands++;
        }
        // bytes queued, one column per pixel at most
        n = ps.qt.length;
        var base = top + h - PAD, full = h - 2 * PAD - 4;
        ctx.fillStyle = 'rgba(33,113,181,0.75)';
        var lastPx = -1, lastTop = base;
        for (k = Math.max(0, lowerBound(ps.qt, tA) - 1); k < n && ps.qt[k] <= tB; k++) {
            if (ps.qv[k] <= 0) {
                continue;
            }
            var tEnd = k + 1 < n ? ps.qt[k + 1] : ps.qt[k];
            x0 = Math.max(LABEL_W, xOf(ps.qt[k]));
            x1 = Math.min(W, xOf(tEnd));
            var yTop = base - (ps.max > 0 ? ps.qv[k] / ps.max : 0) * full;
            if (Math.floor(x0) === lastPx && x1 - x0 < 1 && yTop >= lastTop) {
                continue; // a smaller value within a pixel already drawn
            }
            lastPx = Math.floor(x0);
            lastTop = yTop;
            ctx.fillRect(x0, yTop, Math.max(1, x1 - x0), base - yTop);
            drawn.queueSteps++;
        }
        ctx.restore();
    }

    function draw() {
        var drawStart = performance.now();
        drawn = {bars: 0, aggregated: 0, spans: 0, marks: 0, retransmits: 0, drops: 0, cmRetries: 0, cmTimeouts: 0,
            arrows: 0, arrowsHidden: 0, lanes: 0, pauseBands: 0, queueSteps: 0, inline: 0, stalePayloads: 0};
        ctx.clearRect(0, 0, W, H);
        var tA = tOf(LABEL_W), tB = tOf(W);
        drawAxis(tA, tB);
        ctx.save();
        ctx.beginPath();
        ctx.rect(0, AXIS_H, W, H - AXIS_H);
        ctx.clip();
        var firstLane = Math.max(0, lowerBound(laneY, view.y) - 1);
        var linked = [];
        for (var ln = firstLane; ln < nL && laneY[ln] - view.y < H - AXIS_H; ln++) {
            if (laneH[ln] === 0) {
                continue;
            }
            drawn.lanes++;
            var top = laneY[ln] - view.y + AXIS_H;
            if (L.kind[ln] === 'port') {
                drawPortLane(ln, top, tA, tB);
                continue;
            }
            ctx.fillStyle = isHead(ln) ? '#eef2f7' : (ln % 2 ? '#ffffff' : '#fbfbfb');
            ctx.fillRect(LABEL_W, top, W - LABEL_W, laneH[ln]);
            ctx.strokeStyle = '#ddd';
            ctx.beginPath();
            ctx.moveTo(0, Math.round(top + laneH[ln]) - 0.5);
            ctx.lineTo(W, Math.round(top + laneH[ln]) - 0.5);
            ctx.stroke();
            ctx.save();
            ctx.beginPath();
            ctx.rect(LABEL_W, top, W - LABEL_W, laneH[ln]);
            ctx.clip();
            for (var r = 0; r < (isHead(ln) ? 0 : L.rows[ln]); r++) {
                var g = opRows[ln * 64 + r];
                if (!g) {
                    continue;
                }
                var yy = rowY(ln, r) - view.y + AXIS_H;
                var lastPx = -1e9, lastBad = -1e9;
                for (var q = lowerBound(g.starts, tA - g.maxDur); q < g.idx.length && g.starts[q] <= tB; q++) {
                    var j = g.idx[q];
                    if (t1[j] < tA) {
                        continue;
                    }
                    var x0 = xOf(t0[j]), x1 = xOf(t1[j]);
                    if (x1 - x0 < 2) {
                        var px = Math.floor(x0);
                        if (px === lastPx && !(bad[j] && px !== lastBad)) {
                            drawn.aggregated++;
                            continue;
                        }
                        lastPx = px;
                        if (bad[j]) {
                            lastBad = px;
                        }
                        ctx.fillStyle = colorOf(j);
                        ctx.fillRect(px, yy, Math.max(1, Math.ceil(x1) - px), ROW_H - 3);
                        drawn.bars++;
                    } else {
                        drawOp(j, yy, x0, x1);
                        drawn.bars++;
                    }
                }
            }
            var sg = spanLanes[ln];
            if (sg) {
                var sy = top + laneH[ln] - PAD - SPAN_H;
                var lastSpx = -1e9;
                for (var s = lowerBound(sg.starts, tA - sg.maxDur); s < sg.idx.length && sg.starts[s] <= tB; s++) {
                    var js = sg.idx[s];
                    var sx0 = xOf(SP.t0[js]), sx1 = xOf(SP.t1[js]);
                    if (Math.floor(sx0) === lastSpx && sx1 - sx0 < 2) {
                        continue;
                    }
                    lastSpx = Math.floor(sx0);
                    ctx.fillStyle = colorOf(SP.op[js]);
                    ctx.fillRect(sx0, sy, Math.max(2, sx1 - sx0), SPAN_H - 1);
                    if (str(SP.kind[js]).indexOf('place') >= 0) {
                        ctx.fillStyle = '#000';
                        ctx.fillRect(sx1 - 1, sy - 1, 2, SPAN_H + 1);
                    }
                    drawn.spans++;
                    if (linked.length <= 300) {
                        linked.push(js);
                    }
                }
            }
            var mg = markLanes[ln];
            if (mg) {
                var lastM = {};
                for (var m = lowerBound(mg.starts, tA - 10 / view.scale); m < mg.idx.length
                        && mg.starts[m] <= tB + 10 / view.scale; m++) {
                    var jm = mg.idx[m];
                    var mx = xOf(M.t[jm]);
                    var key = M.kind[jm];
                    if (lastM[key] !== undefined && mx - lastM[key] < (M.bad[jm] ? 3 : 1)) {
                        continue;
                    }
                    lastM[key] = mx;
                    drawMark(jm, mx, ln);
                    drawn.marks++;
                }
            }
            ctx.restore();
        }
        // Messages: when few are in view, a dotted line from an operation to its work on the other side and back.
        if (linked.length <= 300) {
            ctx.save();
            ctx.setLineDash([2, 3]);
            ctx.strokeStyle = 'rgba(60,60,60,0.55)';
            linked.forEach(function (js2) {
                var o = SP.op[js2];
                if (!laneH[O.lane[o]] || !laneH[SP.lane[js2]]) {
                    return;
                }
                var oy = rowY(O.lane[o], O.row[o]) + (ROW_H - 3) / 2 - view.y + AXIS_H;
                var sy2 = laneY[SP.lane[js2]] + laneH[SP.lane[js2]] - PAD - SPAN_H / 2 - view.y + AXIS_H;
                var from = T.tx_end[o] === T.tx_end[o] ? T.tx_end[o] : (T.start[o] === T.start[o] ? T.start[o] : t0[o]);
                ctx.beginPath();
                ctx.moveTo(xOf(Math.min(from, SP.t0[js2])), oy);
                ctx.lineTo(xOf(SP.t0[js2]), sy2);
                if (T.place[o] === T.place[o] && T.place[o] > SP.t1[js2]) {
                    ctx.moveTo(xOf(SP.t1[js2]), sy2);
                    ctx.lineTo(xOf(T.place[o]), oy);
                }
                ctx.stroke();
            });
            ctx.restore();
        }
        // Arrows: from an operation held by a fence (or credits) to each operation it waited for.
        var visible = [];
        for (var ia = 0; ia < nA; ia++) {
            var from = A.op[ia], to = A.to[ia];
            var ta = A.t[ia];
            var tb = T.complete[to] === T.complete[to] ? T.complete[to] : t1[to];
            if (Math.max(ta, tb) >= tA && Math.min(ta, tb) <= tB && laneH[O.lane[from]] && laneH[O.lane[to]]) {
                visible.push(ia);
            }
        }
        if (visible.length > 2000) {
            drawn.arrowsHidden = visible.length;
        } else {
            visible.forEach(function (ia2) {
                var f = A.op[ia2], tt = A.to[ia2];
                var ya = rowY(O.lane[f], O.row[f]) + (ROW_H - 3) / 2 - view.y + AXIS_H;
                var yb = rowY(O.lane[tt], O.row[tt]) + (ROW_H - 3) / 2 - view.y + AXIS_H;
                var tEnd = T.complete[tt] === T.complete[tt] ? T.complete[tt] : t1[tt];
                drawArrow(xOf(A.t[ia2]), ya, xOf(tEnd), yb, str(A.reason[ia2]).indexOf('credit') >= 0 || str(A.reason[ia2]).indexOf('read') === 0 ? '#756bb1' : '#e6550d');
                drawn.arrows++;
            });
        }
        ctx.restore();
        // Lane labels.
        ctx.fillStyle = '#f3f3f3';
        ctx.fillRect(0, AXIS_H, LABEL_W, H - AXIS_H);
        ctx.font = '11px system-ui, sans-serif';
        ctx.textBaseline = 'middle';
        for (var lb = firstLane; lb < nL && laneY[lb] - view.y < H - AXIS_H; lb++) {
            var ly = laneY[lb] - view.y + AXIS_H;
            if (laneH[lb] === 0 || ly + laneH[lb] < AXIS_H) {
                continue;
            }
            var gl = groupOf[lb], first = groupFirst[gl] === lb;
            ctx.fillStyle = isHead(lb) || first ? '#000' : '#333';
            ctx.font = isHead(lb) ? 'bold 11px system-ui, sans-serif' : '11px system-ui, sans-serif';
            var label = laneLabel(lb);
            if (first && groupSize[gl] > 1) {
                // the group's toggle: click the label (or press c / e) to collapse or expand it
                label = (collapsed[groupNames[gl]] ? '\u25b8 ' : '\u25be ') + label.replace(/^ +/, '')
                    + (collapsed[groupNames[gl]] ? ' (+' + (groupSize[gl] - 1) + ')' : '');
            }
            ctx.fillText(label, 6, Math.max(ly, AXIS_H) + (L.kind[lb] === 'port' ? 8 : Math.min(9, laneH[lb] / 2)),
                LABEL_W - 10);
            if (L.kind[lb] === 'port' && portSeries[lb]) {
                ctx.fillStyle = '#777';
                ctx.font = '10px system-ui, sans-serif';
                ctx.fillText('max ' + fmtBytes(portSeries[lb].max) + (portSeries[lb].pauses ? ' \u00b7 '
                    + portSeries[lb].pauses + ' pause' + (portSeries[lb].pauses > 1 ? 's' : '') : ''), 18,
                    Math.max(ly, AXIS_H) + 19, LABEL_W - 22);
            }
            ctx.strokeStyle = '#ddd';
            ctx.beginPath();
            ctx.moveTo(0, Math.round(ly + laneH[lb]) - 0.5);
            ctx.lineTo(LABEL_W, Math.round(ly + laneH[lb]) - 0.5);
            ctx.stroke();
        }
        ctx.strokeStyle = '#bbb';
        ctx.beginPath();
        ctx.moveTo(LABEL_W - 0.5, AXIS_H);
        ctx.lineTo(LABEL_W - 0.5, H);
        ctx.stroke();
        ctx.fillStyle = '#fafafa';
        ctx.fillRect(0, 0, LABEL_W, AXIS_H - 1);
        ctx.fillStyle = '#444';
        ctx.fillText('simulated time', 6, AXIS_H / 2);
        document.getElementById('info').textContent = fmt(tA) + ' \u2013 ' + fmt(tB) + ' \u00b7 ' + nO
            + ' operations \u00b7 ' + drawn.bars + ' bars drawn'
            + (drawn.arrowsHidden ? ' \u00b7 zoom in for ' + drawn.arrowsHidden + ' arrows' : '');
        state.frames++;
        state.lastDrawMs = Math.round(performance.now() - drawStart);
        publish();
    }

    function countMarks(kind) {
        var n = 0;
        for (var j = 0; j < nM; j++) {
            if (str(M.kind[j]) === kind) {
                n++;
            }
        }
        return n;
    }

    var staleCount = countMarks('mem_read_stale');
    var staleSendCount = 0;
    for (i = 0; i < nM; i++) {
        if (str(M.kind[i]) === 'stale_payload' && M.op[i] >= 0 && M.lane[i] === O.lane[M.op[i]]) {
            staleSendCount++;
        }
    }
    var retransmitCount = countMarks('retransmit');
    var dropCount = countMarks('drop');
    var cmRetryCount = countMarks('cm_retry');
    var cmTimeoutCount = countMarks('cm_timeout');
    var badMarks = 0;
    for (i = 0; i < nM; i++) {
        badMarks += M.bad[i];
    }
    var badOps = 0;
    for (i = 0; i < nO; i++) {
        badOps += bad[i];
    }

    function publish() {
        state.scenario = D.scenario;
        state.lanes = L.name;
        state.laneKinds = L.kind;
        state.operations = nO;
        state.spans = nS;
        state.marks = nM;
        state.arrows = nA;
        state.staleReads = staleCount;
        state.retransmits = retransmitCount;
        state.drops = dropCount;
        state.cmRetries = cmRetryCount;
        state.cmTimeouts = cmTimeoutCount;
        state.badMarks = badMarks;
        state.errorOperations = badOps;
        state.drawn = drawn;
        state.portLanes = portLaneNames;
        state.pauses = pauseCount;
        state.staleSends = staleSendCount;
        state.inlinePosts = countMarks('inline');
        state.visibleLanes = [];
        for (var v = 0; v < nL; v++) {
            if (laneH[v] > 0) {
                state.visibleLanes.push(L.name[v]);
            }
        }
        state.collapsed = Object.keys(collapsed).filter(function (g) {
            return collapsed[g];
        }).sort();
        state.filter = filterText;
        state.hash = window.location.hash;
        state.extent = {fromPs: extent.from, toPs: extent.to};
        state.rowHeight = ROW_H;
        // how much of the canvas below the axis the lanes fill (1: all of it, or more: scroll)
        state.filled = Math.round(Math.min(totalH, 1e9) / Math.max(1, H - AXIS_H) * 1000) / 1000;
        state.view = {fromPs: tOf(LABEL_W), toPs: tOf(W)};
        state.canvas = {width: W, height: H};
        var el = document.getElementById('datsim-state');
        if (el) {
            el.textContent = JSON.stringify(state);
        }
    }

    // Hover: the event or operation under the pointer.
    function hit(mx, my) {
        var yl = my - AXIS_H + view.y;
        if (my < AXIS_H || mx < LABEL_W) {
            return null;
        }
        var ln = lowerBound(laneY, yl + 1e-9) - 1;
        if (ln < 0 || ln >= nL) {
            return null;
        }
        var t = tOf(mx), tol = 5 / view.scale;
        if (L.kind[ln] === 'port') {
            return portSeries[ln] ? {port: ln, t: t} : null;
        }
        var mg = markLanes[ln];
        var best = null, bestD = 7;
        if (mg) {
            for (var m = lowerBound(mg.starts, t - tol); m < mg.idx.length && mg.starts[m] <= t + tol; m++) {
                var jm = mg.idx[m];
                var kind = str(M.kind[jm]);
                var my2 = onBar(kind, jm)
                    ? rowY(ln, O.row[M.op[jm]]) + ROW_H / 2 : markY(ln);
                var dd = Math.abs(xOf(M.t[jm]) - mx) + Math.abs(my2 - yl) / 2;
                if (dd < bestD) {
                    bestD = dd;
                    best = {mark: jm};
                }
            }
        }
        if (best) {
            return best;
        }
        var rel = yl - laneY[ln] - PAD - MARK_H;
        if (!isHead(ln) && rel >= 0 && rel < L.rows[ln] * ROW_H) {
            var g = opRows[ln * 64 + Math.floor(rel / ROW_H)];
            if (g) {
                var cand = null;
                for (var q = lowerBound(g.starts, t - g.maxDur - tol); q < g.idx.length && g.starts[q] <= t + tol;
                     q++) {
                    var j = g.idx[q];
                    if (t0[j] - tol <= t && t <= t1[j] + tol) {
                        cand = j;
                    }
                }
                if (cand !== null) {
                    return {op: cand};
                }
            }
        }
        var sg = spanLanes[ln];
        if (sg && rel >= L.rows[ln] * ROW_H - 2) {
            for (var s = lowerBound(sg.starts, t - sg.maxDur - tol); s < sg.idx.length && sg.starts[s] <= t + tol;
                 s++) {
                var js = sg.idx[s];
                if (SP.t0[js] - tol <= t && t <= SP.t1[js] + tol) {
                    return {span: js};
                }
            }
        }
        return null;
    }

    function opText(j) {
        var lines = ['op ' + O.id[j] + '  ' + str(O.opcode[j]) + (O.bytes[j] >= 0 ? '  ' + O.bytes[j] + ' B' : '')
            + '  cookie ' + O.cookie[j], 'endpoint ' + L.name[O.lane[j]]];
        if (O.flags[j] >= 0) {
            lines.push('flags ' + str(O.flags[j]));
        }
        var p = T.post[j];
        ['post'].concat(PH).forEach(function (name) {
            var v = T[name][j];
            if (v === v) {
                lines.push((name + '          ').slice(0, 10) + fmt(v) + (name !== 'post' && p === p ? '   (+'
                    + fmt(v - p) + ')' : ''));
            }
        });
        if (O.status[j] >= 0) {
            lines.push('status    ' + str(O.status[j]));
        }
        if (p === p && T.complete[j] === T.complete[j]) {
            lines.push('latency   ' + fmt(T.complete[j] - p) + ' (post to completion)');
        }
        for (var ia = 0; ia < nA; ia++) {
            if (A.op[ia] === j) {
                lines.push('held at ' + fmt(A.t[ia]) + ' by ' + str(A.reason[ia]) + ': waited for op '
                    + O.id[A.to[ia]] + ' (' + str(O.opcode[A.to[ia]]) + ')');
            } else if (A.to[ia] === j) {
                lines.push('op ' + O.id[A.op[ia]] + ' waited for this (' + str(A.reason[ia]) + ')');
            }
        }
        for (var im = 0; im < nM; im++) {
            if (M.op[im] === j && str(M.kind[im]) === 'retransmit') {
                lines.push('retransmitted at ' + fmt(M.t[im]) + ': ' + retransmitWhy(str(M.detail[im]))
                    + ' (go-back-N from this operation)');
            } else if (M.op[im] === j && str(M.kind[im]) === 'inline') {
                lines.push('inline: payload copied by the CPU at the post (' + fmt(M.t[im]) + ')');
            } else if (M.op[im] === j && str(M.kind[im]) === 'stale_payload' && M.lane[im] !== O.lane[j]) {
                lines.push('\u26a0 stale payload placed on ' + L.name[M.lane[im]] + ' at ' + fmt(M.t[im]) + ': '
                    + str(M.detail[im]).replace(/^received stale bytes: /, ''));
            } else if (M.op[im] === j && str(M.kind[im]) === 'drop') {
                lines.push('dropped at ' + fmt(M.t[im]) + ': ' + dropWhat(str(M.detail[im])));
            }
        }
        for (var s = 0; s < nS; s++) {
            if (SP.op[s] === j) {
                lines.push('on ' + L.name[SP.lane[s]] + ': ' + str(SP.kind[s]) + ' ' + fmt(SP.t0[s])
                    + (SP.t1[s] > SP.t0[s] ? ' \u2013 ' + fmt(SP.t1[s]) : ''));
            }
        }
        return lines.join('\n');
    }

    // "after a sequence-error NAK, attempt 1" from a retransmit mark's detail lines ("reason: ...", "attempt: N").
    function retransmitWhy(detail) {
        var reason = (/^reason: (.*)$/m.exec(detail) || [])[1] || '';
        var attempt = (/^attempt: (.*)$/m.exec(detail) || [])[1] || '?';
        var why = {ack_timeout: 'a local ACK timeout', nak_sequence_error: 'a sequence-error NAK',
            response_missing: 'a missing response'}[reason] || reason;
        return 'after ' + why + ', attempt ' + attempt;
    }

    // "rdma_write packet 2 of 8 from A, by switch S arriving over A->S (buffer full)" from a drop mark's detail lines.
    function dropWhat(detail) {
        function field(name) {
            return (new RegExp('^' + name + ': (.*)$', 'm').exec(detail) || [])[1] || '';
        }
        var packets = +field('packets'), index = field('index');
        var reason = {buffer_full: 'buffer full', filter: 'drop filter'}[field('reason')] || field('reason');
        var what = field('message') ? 'CM ' + field('message') + (field('comm_id') ? ' of connection '
            + field('comm_id') : '') + ' to ' + field('to') : field('packet') + ' packet'
            + (packets > 1 && index !== '' ? ' ' + (+index + 1) + ' of ' + packets : '');
        return what + (field('from') ? ' from ' + field('from') : '') + ', by switch ' + field('switch')
            + ' arriving over ' + field('port') + ' (' + reason + ')';
    }

    // "REQ to B (connection 2) sent again, attempt 2\nno REP or REJ within cm.response_timeout" from a cm_retry or
    // cm_timeout mark's detail lines.
    function cmWhat(kind, detail) {
        function field(name) {
            return (new RegExp('^' + name + ': (.*)$', 'm').exec(detail) || [])[1] || '';
        }
        var message = field('message');
        var answer = {REQ: 'REP or REJ', REP: 'RTU', DREQ: 'DREP'}[message] || 'answer';
        var conn = field('comm_id') ? ' (connection ' + field('comm_id') + ')' : '';
        if (kind === 'cm_retry') {
            return message + ' to ' + field('to') + conn + ' sent again, attempt ' + field('attempt') + '\nno '
                + answer + ' within cm.response_timeout';
        }
        return message + ' to ' + field('to') + conn + ' given up after ' + field('resends') + ' resends\nno '
            + answer + ' (cm.max_retries)';
    }

    function portText(ln, t) {
        var ps = portSeries[ln];
        var k = lowerBound(ps.qt, t + 1e-6) - 1;
        var q = k >= 0 ? ps.qv[k] : 0;
        var p = lowerBound(ps.pt, t + 1e-6) - 1;
        var lines = ['port ' + L.name[ln] + ' at ' + fmt(t), 'queued    ' + fmtBytes(q) + (k >= 0 ? ' (since '
            + fmt(ps.qt[k]) + ')' : ''), 'max       ' + fmtBytes(ps.max)];
        if (p >= 0 && ps.pv[p] === 1) {
            lines.push('PAUSED by PFC since ' + fmt(ps.pt[p]) + (p + 1 < ps.pt.length ? ', resumed at '
                + fmt(ps.pt[p + 1]) + ' (' + fmt(ps.pt[p + 1] - ps.pt[p]) + ')' : ''));
        } else {
            lines.push('not paused' + (p >= 0 ? ' (resumed at ' + fmt(ps.pt[p]) + ')' : ''));
        }
        lines.push('pauses    ' + ps.pauses);
        return lines.join('\n');
    }

    function tipText(h) {
        if (h.port !== undefined) {
            return portText(h.port, h.t);
        }
        if (h.mark !== undefined) {
            var j = h.mark;
            var kind = str(M.kind[j]);
            if (kind === 'drop') {
                return 'drop at ' + fmt(M.t[j]) + ': ' + dropWhat(str(M.detail[j])) + '\n' + L.name[M.lane[j]]
                    + (M.op[j] >= 0 ? ': a packet of op ' + O.id[M.op[j]] + ' (' + str(O.opcode[M.op[j]]) + ')' : '')
                    + '\n' + str(M.detail[j]);
            }
            if (kind === 'retransmit') {
                return 'retransmit at ' + fmt(M.t[j]) + ' ' + retransmitWhy(str(M.detail[j])) + '\n'
                    + L.name[M.lane[j]] + ': go-back-N from op ' + (M.op[j] >= 0 ? O.id[M.op[j]] : '?')
                    + ', with every later unfinished operation\n' + str(M.detail[j]);
            }
            if (kind === 'cm_retry' || kind === 'cm_timeout') {
                return (kind === 'cm_retry' ? 'CM resend at ' : 'CM timeout at ') + fmt(M.t[j]) + ': '
                    + cmWhat(kind, str(M.detail[j])) + '\n' + L.name[M.lane[j]] + '\'s connection manager\n'
                    + str(M.detail[j]);
            }
            if (kind === 'stale_payload' || kind === 'inline') {
                return (M.bad[j] ? '\u26a0 STALE payload' : 'inline post') + ' at ' + fmt(M.t[j]) + ' on '
                    + L.name[M.lane[j]] + '\n' + str(M.detail[j]);
            }
            return (M.bad[j] ? '\u26a0 ' : '') + kind.replace('_stale', ' (STALE bytes)') + ' at ' + fmt(M.t[j])
                + '\n' + L.name[M.lane[j]] + (str(M.detail[j]) ? '\n' + str(M.detail[j]) : '');
        }
        if (h.span !== undefined) {
            var o = SP.op[h.span];
            return 'op ' + O.id[o] + ' (' + str(O.opcode[o]) + ' from ' + L.name[O.lane[o]] + ') on '
                + L.name[SP.lane[h.span]] + ': ' + str(SP.kind[h.span]) + '\n' + fmt(SP.t0[h.span])
                + (SP.t1[h.span] > SP.t0[h.span] ? ' \u2013 ' + fmt(SP.t1[h.span]) : '');
        }
        return opText(h.op);
    }

    // The tooltip's padding and border, horizontal and vertical (px): its max-width and max-height are of its content.
    var tipCss = window.getComputedStyle(tip);
    var TIP_FRAME_X = parseFloat(tipCss.paddingLeft) + parseFloat(tipCss.paddingRight)
        + parseFloat(tipCss.borderLeftWidth) + parseFloat(tipCss.borderRightWidth);
    var TIP_FRAME_Y = parseFloat(tipCss.paddingTop) + parseFloat(tipCss.paddingBottom)
        + parseFloat(tipCss.borderTopWidth) + parseFloat(tipCss.borderBottomWidth);
    var TIP_MARGIN = 2; // px kept free between the tooltip and the edge of what is visible
    var tipAt = null; // the pointer the tooltip is shown for, in the viewport's pixels

    // Shows the details of h next to the pointer (mx, my: pixels of the canvas), inside the part of the canvas that is
    // visible (#wrap clips, and the window may be smaller than the canvas): right of and below the pointer where the
    // tooltip fits, else left of or above it, else against the far edge. A tooltip wider than all of that wraps its
    // long lines; one taller is cut at the bottom.
    function showTip(h, mx, my) {
        if (!h) {
            tip.hidden = true;
            tipAt = null;
            return;
        }
        tip.textContent = tipText(h);
        tip.hidden = false;
        var box = wrap.getBoundingClientRect();
        var doc = document.documentElement;
        // the visible part of #wrap, in its own pixels (the tooltip's left and top are relative to it)
        var x0 = Math.max(0, -box.left) + TIP_MARGIN, y0 = Math.max(0, -box.top) + TIP_MARGIN;
        var x1 = Math.min(wrap.clientWidth, doc.clientWidth - box.left) - TIP_MARGIN;
        var y1 = Math.min(wrap.clientHeight, doc.clientHeight - box.top) - TIP_MARGIN;
        // measured where the whole room is available, so its width is its text's (or the room's), not what is left
        // of the room at its previous place
        tip.style.left = x0 + 'px';
        tip.style.top = y0 + 'px';
        tip.style.maxWidth = 'min(60em, ' + Math.max(0, x1 - x0 - TIP_FRAME_X) + 'px)';
        tip.style.maxHeight = Math.max(0, y1 - y0 - TIP_FRAME_Y) + 'px';
        var size = tip.getBoundingClientRect(); // fractional, unlike offsetWidth
        tip.style.left = tipPlace(mx, size.width, x0, x1) + 'px';
        tip.style.top = tipPlace(my, size.height, y0, y1) + 'px';
        tipAt = {x: box.left + mx, y: box.top + my};
    }

    // Where a tooltip of this size starts along one axis: after the pointer p if it fits in [lo, hi], else before
    // it, else as far towards the start as it must to end at hi.
    function tipPlace(p, size, lo, hi) {
        if (p + 14 >= lo && p + 14 + size <= hi) {
            return p + 14;
        }
        if (p - 10 - size >= lo && p - 10 <= hi) {
            return p - 10 - size;
        }
        return Math.max(lo, hi - size);
    }

    // Where the tooltip is (its box, in CSS pixels of the viewport), the pointer it is shown for, the viewport's size,
    // and how far its text overflows its box (px; 0: all of it is in the box), for tests; null when hidden.
    function tipBox() {
        if (tip.hidden) {
            return null;
        }
        var r = tip.getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, pointer: tipAt,
            viewport: {width: document.documentElement.clientWidth, height: document.documentElement.clientHeight},
            overflow: {x: tip.scrollWidth - tip.clientWidth, y: tip.scrollHeight - tip.clientHeight}};
    }

    // timeline.html#hover=op:N points at operation N's bar as the mouse would and shows its details (for links
    // and tests); what the pointer found is published as state.hover.
    function hoverFromHash() {
        var mk = /hover=mark:([a-z_]+)(?::([0-9]+))?/.exec(window.location.hash);
        if (mk) {
            hoverMark(mk[1], mk[2] ? +mk[2] : 1);
            return;
        }
        var m = /hover=op:([0-9]+)/.exec(window.location.hash);
        if (!m) {
            return;
        }
        for (var j = 0; j < nO; j++) {
            if (O.id[j] === +m[1]) {
                var ts = T.start[j] === T.start[j] ? T.start[j] : t0[j];
                var mx = Math.min(Math.max(xOf((ts + t1[j]) / 2), LABEL_W + 1), W - 1);
                var my = rowY(O.lane[j], O.row[j]) + ROW_H / 2 - view.y + AXIS_H;
                var h = hit(mx, my);
                showTip(h, mx, my);
                state.hover = h ? tipText(h) : null;
                state.tip = tipBox();
                publish();
                return;
            }
        }
    }

    // timeline.html#hover=mark:KIND:N points at the N-th mark of a kind (from 1, in trace order; e.g. cm_retry)
    // drawn along the top of its lane, as the mouse would; the view moves to it if it is off screen.
    function hoverMark(kind, n) {
        for (var j = 0; j < nM; j++) {
            if (str(M.kind[j]) === kind && !onBar(kind, j) && --n === 0) {
                var mx = xOf(M.t[j]);
                var my = markY(M.lane[j]) - view.y + AXIS_H;
                if (mx < LABEL_W + 1 || mx > W - 1 || my < AXIS_H || my > H - 1) {
                    view.t = M.t[j] - (W - LABEL_W) / 2 / view.scale;
                    view.y = Math.max(0, laneY[M.lane[j]] - 20);
                    draw();
                    mx = xOf(M.t[j]);
                    my = markY(M.lane[j]) - view.y + AXIS_H;
                }
                var h = hit(mx, my);
                showTip(h, mx, my);
                state.hover = h ? tipText(h) : null;
                state.tip = tipBox();
                publish();
                return;
            }
        }
    }

    var drag = null;
    canvas.addEventListener('mousedown', function (e) {
        var rect0 = canvas.getBoundingClientRect();
        if (e.clientX - rect0.left < LABEL_W && e.clientY - rect0.top >= AXIS_H) {
            var ln0 = lowerBound(laneY, e.clientY - rect0.top - AXIS_H + view.y + 1e-9) - 1;
            if (ln0 >= 0 && ln0 < nL) {
                toggleGroup(groupNames[groupOf[ln0]]);
            }
            return;
        }
        drag = {x: e.clientX, y: e.clientY, t: view.t, vy: view.y};
        canvas.classList.add('dragging');
        tip.hidden = true;
    });
    window.addEventListener('mouseup', function () {
        drag = null;
        canvas.classList.remove('dragging');
    });
    window.addEventListener('mousemove', function (e) {
        var rect = canvas.getBoundingClientRect();
        if (drag) {
            view.t = drag.t - (e.clientX - drag.x) / view.scale;
            view.y = Math.max(0, Math.min(Math.max(0, totalH - (H - AXIS_H) + 20), drag.vy - (e.clientY - drag.y)));
            request();
            return;
        }
        var mx = e.clientX - rect.left, my = e.clientY - rect.top;
        showTip(mx >= 0 && my >= 0 && mx < W && my < H ? hit(mx, my) : null, mx, my);
    });
    canvas.addEventListener('wheel', function (e) {
        e.preventDefault();
        var rect = canvas.getBoundingClientRect();
        var mx = Math.max(LABEL_W, e.clientX - rect.left);
        if (e.shiftKey) {
            view.y = Math.max(0, Math.min(Math.max(0, totalH - (H - AXIS_H) + 20), view.y + e.deltaY));
        } else {
            var t = tOf(mx);
            var f = Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015));
            view.scale = Math.min(Math.max(view.scale * f, (W - LABEL_W) / (Math.max(endPs, extent.to) * 50)), 1000);
            view.t = t - (mx - LABEL_W) / view.scale;
        }
        tip.hidden = true;
        request();
    }, {passive: false});
    canvas.addEventListener('dblclick', function () {
        fit();
        request();
    });
    document.getElementById('reset').addEventListener('click', function () {
        fit();
        request();
    });
    window.addEventListener('resize', function () {
        var keep = {t: view.t, scale: view.scale * (W - LABEL_W)};
        resize();
        layout(H - AXIS_H);
        view.scale = keep.scale / (W - LABEL_W);
        request();
    });

    var legend = document.getElementById('legend');
    function sw(color, text) {
        var s = document.createElement('span');
        s.className = 'sw';
        s.style.background = color;
        legend.appendChild(s);
        legend.appendChild(document.createTextNode(text));
    }
    Object.keys(COLORS).forEach(function (k2) {
        sw(COLORS[k2], k2);
    });
    sw(RED, 'error / stale');
    sw('#9a9a9a', 'queued');
    sw('rgba(0,0,0,0.35)', 'wire');
    sw('#e6550d', 'fence wait');
    sw(RETRANSMIT, 'retransmit / CM resend');
    sw(DROP, 'drop');
    sw(INLINE, 'inline post');
    sw(PAUSE, 'PFC pause');
    sw('rgba(33,113,181,0.75)', 'bytes queued');

    // Collapsing, filtering and the keyboard. The state is kept in the address's hash (filter=TEXT, collapsed=all or
    // a comma-separated list of groups) next to from=, to= and hover=, so a link opens the same view.
    function hashParams() {
        var out = {};
        window.location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
            var e = kv.indexOf('=');
            if (e > 0) {
                out[kv.slice(0, e)] = kv.slice(e + 1);
            }
        });
        return out;
    }

    function saveHash() {
        var hp = hashParams();
        delete hp.filter;
        delete hp.collapsed;
        var names = Object.keys(collapsed).filter(function (g) {
            return collapsed[g];
        }).sort();
        var parts = Object.keys(hp).map(function (k4) {
            return k4 + '=' + hp[k4];
        });
        if (filterText !== '') {
            parts.push('filter=' + encodeURIComponent(filterText));
        }
        if (names.length > 0) {
            parts.push('collapsed=' + (names.length === multiGroups().length ? 'all'
                : names.map(encodeURIComponent).join(',')));
        }
        var url = window.location.href.replace(/#.*$/, '') + (parts.length ? '#' + parts.join('&') : '');
        try {
            window.history.replaceState(null, '', url);
        } catch (err) {
            // some browsers refuse replaceState on file:// pages: the view still changes
        }
    }

    /** The groups with more than one lane (those that collapse). */
    function multiGroups() {
        return groupNames.filter(function (g, k5) {
            return groupSize[k5] > 1;
        });
    }

    function relayout() {
        var keepY = view.y;
        layout(H - AXIS_H);
        view.y = Math.max(0, Math.min(Math.max(0, totalH - (H - AXIS_H) + 20), keepY));
        saveHash();
        tip.hidden = true;
        request();
    }

    function toggleGroup(name) {
        collapsed[name] = !collapsed[name];
        relayout();
    }

    function setAll(c) {
        multiGroups().forEach(function (g) {
            collapsed[g] = c;
        });
        relayout();
    }

    var filterBox = document.getElementById('filter');
    filterBox.addEventListener('input', function () {
        filterText = filterBox.value;
        relayout();
    });
    document.getElementById('collapse').addEventListener('click', function () {
        setAll(true);
    });
    document.getElementById('expand').addEventListener('click', function () {
        setAll(false);
    });
    window.addEventListener('keydown', function (e) {
        if (e.target === filterBox) {
            if (e.key === 'Escape') {
                filterBox.value = '';
                filterText = '';
                filterBox.blur();
                relayout();
            }
            return;
        }
        if (e.ctrlKey || e.metaKey || e.altKey) {
            return;
        }
        var span = (W - LABEL_W) / view.scale;
        var handled = true;
        switch (e.key) {
            case '/':
                filterBox.focus();
                break;
            case 'c':
                setAll(true);
                break;
            case 'e':
                setAll(false);
                break;
            case 'f':
            case '0':
                fit();
                request();
                break;
            case '+':
            case '=':
            case '-':
                var mid = view.t + span / 2;
                view.scale *= e.key === '-' ? 1 / 1.5 : 1.5;
                view.t = mid - (W - LABEL_W) / 2 / view.scale;
                request();
                break;
            case 'ArrowLeft':
            case 'ArrowRight':
                view.t += (e.key === 'ArrowLeft' ? -0.2 : 0.2) * span;
                request();
                break;
            case 'ArrowUp':
            case 'ArrowDown':
                view.y = Math.max(0, Math.min(Math.max(0, totalH - (H - AXIS_H) + 20), view.y
                    + (e.key === 'ArrowUp' ? -60 : 60)));
                request();
                break;
            default:
                handled = false;
        }
        if (handled) {
            e.preventDefault();
            tip.hidden = true;
        }
    });

    function stateFromHash() {
        var hp = hashParams();
        if (hp.filter !== undefined) {
            try {
                filterText = decodeURIComponent(hp.filter);
            } catch (err) {
                filterText = hp.filter;
            }
            filterBox.value = filterText;
        }
        if (hp.collapsed !== undefined) {
            if (hp.collapsed === 'all') {
                multiGroups().forEach(function (g) {
                    collapsed[g] = true;
                });
            } else {
                hp.collapsed.split(',').forEach(function (g) {
                    try {
                        collapsed[decodeURIComponent(g)] = true;
                    } catch (err) {
                        collapsed[g] = true;
                    }
                });
            }
        }
    }

    // timeline.html#from=PS&to=PS (picoseconds) opens the page on that interval.
    function fromHash() {
        var m = /from=(-?[0-9.e+]+)&to=(-?[0-9.e+]+)/.exec(window.location.hash);
        if (m && +m[2] > +m[1]) {
            view.t = +m[1];
            view.scale = (W - LABEL_W) / (+m[2] - +m[1]);
            return true;
        }
        return false;
    }

    // timeline.html#keys=ce (for links and tests): presses those keys once the page is drawn, as a person would.
    function keysFromHash() {
        var k6 = hashParams().keys;
        if (k6) {
            decodeURIComponent(k6).split('').forEach(function (c) {
                window.dispatchEvent(new KeyboardEvent('keydown', {key: c}));
            });
            draw();
        }
    }

    resize();
    stateFromHash();
    layout(H - AXIS_H);
    fit();
    fromHash();
    state.loadMs = Math.round(performance.now() - started);
    draw();
    state.ready = true;
    publish();
    keysFromHash();
    hoverFromHash();
}());

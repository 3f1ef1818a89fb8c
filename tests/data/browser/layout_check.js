/* rlprof's layout check (tests/render/test_browser_layout.c): appended to
 * a copy of report.html, run by headless Chromium at a given window
 * width. Its verdict goes into <body data-layout="...">: "ok", or one line
 * per finding: an element reaching past the viewport's right (or left)
 * edge, a chart text outside its chart, two chart texts whose boxes (as
 * drawn, rotation included) overlap. */
(function () {
	var found = [];
	var width = document.documentElement.clientWidth;

	function name(e) {
		var s = e.tagName.toLowerCase();
		if (e.id)
			s += '#' + e.id;
		var c = e.getAttribute('class');
		if (c)
			s += '.' + c.split(/\s+/).join('.');
		var t = (e.textContent || '').replace(/\s+/g, ' ').trim();
		if (t)
			s += ' "' + t.slice(0, 40) + '"';
		return s;
	}
	/* the four corners of an SVG text as drawn, in page pixels */
	function quad(t) {
		var b = t.getBBox(), m = t.getScreenCTM(), q = [];
		var xs = [b.x, b.x + b.width, b.x + b.width, b.x];
		var ys = [b.y, b.y, b.y + b.height, b.y + b.height];
		for (var i = 0; i < 4; i++)
			q.push({x: m.a * xs[i] + m.c * ys[i] + m.e,
				y: m.b * xs[i] + m.d * ys[i] + m.f});
		return q;
	}
	/* separating-axis test of two convex quads, overlap deeper than
	 * tol pixels */
	function overlap(p, q, tol) {
		var sets = [p, q];
		for (var s = 0; s < 2; s++)
			for (var i = 0; i < 4; i++) {
				var a = sets[s][i], b = sets[s][(i + 1) % 4];
				var nx = a.y - b.y, ny = b.x - a.x;
				var len = Math.sqrt(nx * nx + ny * ny);
				if (!len)
					continue;
				nx /= len;
				ny /= len;
				var r = [[Infinity, -Infinity], [Infinity, -Infinity]];
				for (var k = 0; k < 2; k++)
					for (var j = 0; j < 4; j++) {
						var d = sets[k][j].x * nx + sets[k][j].y * ny;
						r[k][0] = Math.min(r[k][0], d);
						r[k][1] = Math.max(r[k][1], d);
					}
				if (r[0][1] - tol <= r[1][0] || r[1][1] - tol <= r[0][0])
					return false;
			}
		return true;
	}

	var all = document.body.getElementsByTagName('*');
	for (var i = 0; i < all.length; i++) {
		var e = all[i];
		if (e.tagName.toLowerCase() === 'script')
			continue;
		if (e.ownerSVGElement)
			continue; /* inside a chart: checked below */
		var r = e.getBoundingClientRect();
		if (!r.width && !r.height)
			continue;
		if (r.right > width + 0.5 || r.left < -0.5)
			found.push('overflow: ' + name(e) + ' spans ' +
				   Math.round(r.left) + '..' + Math.round(r.right) +
				   ' px of ' + width);
	}
	if (document.documentElement.scrollWidth > width)
		found.push('the page scrolls sideways: ' +
			   document.documentElement.scrollWidth + ' px wide in ' +
			   width);

	var svgs = document.getElementsByTagName('svg');
	for (var s = 0; s < svgs.length; s++) {
		var box = svgs[s].getBoundingClientRect();
		var texts = svgs[s].getElementsByTagName('text'), q = [], el = [];
		for (var t = 0; t < texts.length; t++) {
			if (!(texts[t].textContent || '').trim())
				continue;
			var tq = quad(texts[t]);
			for (var k = 0; k < 4; k++)
				if (tq[k].x < box.left - 0.5 || tq[k].x > box.right + 0.5 ||
				    tq[k].y < box.top - 0.5 || tq[k].y > box.bottom + 0.5) {
					found.push('outside its chart: ' + name(texts[t]));
					break;
				}
			q.push(tq);
			el.push(texts[t]);
		}
		for (var a = 0; a < q.length; a++)
			for (var b = a + 1; b < q.length; b++)
				if (overlap(q[a], q[b], 1))
					found.push('overlap: ' + name(el[a]) + ' / ' +
						   name(el[b]));
	}
	document.body.setAttribute('data-layout',
				   found.length ? found.join('\n') : 'ok');
	document.body.setAttribute('data-layout-width', String(width));
})();

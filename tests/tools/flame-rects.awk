# The frame rectangles of a flame graph SVG, flamegraph.pl's or
# pd-flame's, one per line: "DEPTH X WIDTH NAME", where NAME is the
# frame's <title> up to its last " (" with the XML escapes undone, X and
# WIDTH are the <rect>'s attributes as written, and DEPTH counts rows
# from the "all" frame (0) whichever way the graph grows.
#
#   awk -f flame-rects.awk fg.svg | LC_ALL=C sort -k1,1n -k2,2n
function attr(s, name,   i, r) {
	i = index(s, " " name "=\"")
	if (!i)
		return ""
	r = substr(s, i + length(name) + 3)
	return substr(r, 1, index(r, "\"") - 1)
}
function unescape(s) {
	gsub(/&lt;/, "<", s)
	gsub(/&gt;/, ">", s)
	gsub(/&quot;/, "\"", s)
	gsub(/&amp;/, "\\&", s)
	return s
}
{
	line = $0
	while ((i = index(line, "<title>")) > 0) {
		rest = substr(line, i + 7)
		j = index(rest, "</title>")
		if (!j)
			break
		title = substr(rest, 1, j - 1)
		rest = substr(rest, j + 8)
		k = index(rest, "<rect ")
		if (!k)
			break
		rect = substr(rest, k)
		rect = substr(rect, 1, index(rect, ">"))
		n++
		T[n] = title
		X[n] = attr(rect, "x")
		Y[n] = attr(rect, "y")
		W[n] = attr(rect, "width")
		line = rest
	}
}
END {
	root = 0
	for (i = 1; i <= n; i++)
		if (substr(T[i], 1, 5) == "all (" && (!root || W[i] + 0 > W[root] + 0))
			root = i
	# the rows, from the top
	nr = 0
	for (i = 1; i <= n; i++) {
		if (!(Y[i] in seen)) {
			seen[Y[i]] = 1
			R[++nr] = Y[i] + 0
		}
	}
	for (i = 2; i <= nr; i++) {
		v = R[i]
		for (j = i - 1; j >= 1 && R[j] > v; j--)
			R[j + 1] = R[j]
		R[j + 1] = v
	}
	for (i = 1; i <= nr; i++)
		rank[R[i]] = i - 1
	down = root && rank[Y[root] + 0] == 0	# icicle: the root row on top
	for (i = 1; i <= n; i++) {
		d = rank[Y[i] + 0]
		if (!down)
			d = nr - 1 - d
		name = T[i]
		p = 0
		for (k = length(name) - 1; k >= 1; k--)
			if (substr(name, k, 2) == " (") {
				p = k
				break
			}
		if (p)
			name = substr(name, 1, p - 1)
		printf "%d %s %s %s\n", d, X[i], W[i], unescape(name)
	}
}

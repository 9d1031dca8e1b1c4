/// A static R-tree over rectangles, packed with the Sort-Tile-Recursive
/// method. Built once per page over its lines; answers "which items
/// intersect this rectangle" and "which item is nearest to this point" in
/// O(log *n*) for the evenly spread boxes of a text page.
struct SpatialIndex: Sendable {
  private struct Node: Sendable {
    var bounds: Rect
    /// Children: node indices for an inner node, item indices for a leaf.
    var children: Range<Int>
    var isLeaf: Bool
  }

  private static let fanout = 8
  private var nodes: [Node] = []
  /// Child lists of all nodes, concatenated.
  private var childList: [Int] = []
  private let itemBounds: [Rect]
  private var root: Int?
  /// The most nodes a depth-first walk can have pending: levels × fanout.
  private var maxPending = 1

  /// The number of items.
  var count: Int { itemBounds.count }

  /// Builds the tree over `bounds`; item `i` is `bounds[i]`.
  init(_ bounds: [Rect]) {
    itemBounds = bounds
    guard !bounds.isEmpty else { return }
    // Leaves: tile the items into vertical slices by x, then by y.
    var level: [(bounds: Rect, entries: [Int], leaf: Bool)] = Self.pack(
      Array(bounds.indices), bounds: { bounds[$0] }
    ).map { group in (Self.union(group.map { bounds[$0] }), group, true) }
    while true {
      var ids: [Int] = []
      for entry in level {
        let start = childList.count
        childList.append(contentsOf: entry.entries)
        nodes.append(
          Node(bounds: entry.bounds, children: start..<childList.count, isLeaf: entry.leaf))
        ids.append(nodes.count - 1)
      }
      maxPending += Self.fanout
      if ids.count == 1 {
        root = ids[0]
        return
      }
      let nodeBounds = nodes.map(\.bounds)
      level = Self.pack(ids, bounds: { nodeBounds[$0] }).map { group in
        (Self.union(group.map { nodeBounds[$0] }), group, false)
      }
    }
  }

  private static func union(_ rects: [Rect]) -> Rect {
    var r = rects[0]
    for s in rects.dropFirst() {
      r = Rect(
        minX: min(r.minX, s.minX), minY: min(r.minY, s.minY),
        maxX: max(r.maxX, s.maxX), maxY: max(r.maxY, s.maxY))
    }
    return r
  }

  /// Sort-Tile-Recursive grouping of `ids` into groups of at most `fanout`.
  private static func pack(_ ids: [Int], bounds: (Int) -> Rect) -> [[Int]] {
    let leafCount = (ids.count + fanout - 1) / fanout
    var slices = 1
    while slices * slices < leafCount { slices += 1 }
    let perSlice = slices * fanout
    let byX = ids.sorted { bounds($0).center.x < bounds($1).center.x }
    var groups: [[Int]] = []
    var start = 0
    while start < byX.count {
      let slice = byX[start..<min(start + perSlice, byX.count)].sorted {
        bounds($0).center.y < bounds($1).center.y
      }
      var s = slice.startIndex
      while s < slice.endIndex {
        let e = min(s + fanout, slice.endIndex)
        groups.append(Array(slice[s..<e]))
        s = e
      }
      start += perSlice
    }
    return groups
  }

  /// Calls `body` with every item whose bounds intersect `rect` (edges count).
  func forEachItem(intersecting rect: Rect, _ body: (Int) -> Void) {
    guard let root else { return }
    // The pending nodes never exceed levels × fanout; keep them on the stack.
    withUnsafeTemporaryAllocation(of: Int.self, capacity: maxPending) { stack in
      var count = 0
      stack[0] = root
      count = 1
      while count > 0 {
        count -= 1
        let node = nodes[stack[count]]
        guard Self.intersects(node.bounds, rect) else { continue }
        for c in node.children {
          let child = childList[c]
          if node.isLeaf {
            if Self.intersects(itemBounds[child], rect) { body(child) }
          } else {
            stack[count] = child
            count += 1
          }
        }
      }
    }
  }

  /// The item minimising `distance`, searching in order of box distance and
  /// pruning subtrees whose box is farther than the best found.
  ///
  /// `distance(i)` must be at least the distance from `point` to `bounds[i]`.
  /// Ties are broken by the smaller `tieBreak`.
  func nearest(
    to point: Point, distance: (Int) -> Double, tieBreak: (Int) -> Double
  ) -> Int? {
    guard let root else { return nil }
    var best: (item: Int, d: Double, t: Double)?
    var stack: [(node: Int, d: Double)] = [(root, nodes[root].bounds.distance(to: point))]
    while let (n, d) = stack.popLast() {
      if let b = best, d > b.d { continue }
      let node = nodes[n]
      if node.isLeaf {
        for c in node.children {
          let item = childList[c]
          guard best == nil || itemBounds[item].distance(to: point) <= best?.d ?? 0 else {
            continue
          }
          let di = distance(item)
          if let b = best {
            if di > b.d { continue }
            if di == b.d {
              let t = tieBreak(item)
              if t >= b.t { continue }
              best = (item, di, t)
              continue
            }
          }
          best = (item, di, tieBreak(item))
        }
      } else {
        // Push farther children first so the nearest is explored first.
        let children = node.children.map { childList[$0] }
          .map { ($0, nodes[$0].bounds.distance(to: point)) }
          .sorted { $0.1 > $1.1 }
        stack.append(contentsOf: children.map { (node: $0.0, d: $0.1) })
      }
    }
    return best?.item
  }

  private static func intersects(_ a: Rect, _ b: Rect) -> Bool {
    a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY
  }

  /// Every broken invariant of the tree, described (empty when sound): each
  /// node's bounds contain its children's, no node has more than `fanout`
  /// children, and every item is in exactly one leaf.
  ///
  /// - Complexity: O(*n*) in the number of items.
  func invariantViolations() -> [String] {
    var problems: [String] = []
    guard let root else {
      if !itemBounds.isEmpty { problems.append("\(itemBounds.count) items but no root") }
      return problems
    }
    var seen = [Int](repeating: 0, count: itemBounds.count)
    var pending = [root]
    var visited = 0
    while let n = pending.popLast() {
      visited += 1
      guard visited <= nodes.count else {
        problems.append("a node is reachable twice (cycle or shared child)")
        break
      }
      let node = nodes[n]
      if node.children.count > Self.fanout {
        problems.append("node \(n) has \(node.children.count) children")
      }
      for c in node.children {
        let child = childList[c]
        let bounds = node.isLeaf ? itemBounds[child] : nodes[child].bounds
        if !Self.contains(node.bounds, bounds) {
          problems.append("node \(n) does not contain its child \(child)")
        }
        if node.isLeaf { seen[child] += 1 } else { pending.append(child) }
      }
    }
    for (item, count) in seen.enumerated() where count != 1 {
      problems.append("item \(item) is in \(count) leaves")
    }
    return problems
  }

  private static func contains(_ outer: Rect, _ inner: Rect) -> Bool {
    outer.minX <= inner.minX && outer.minY <= inner.minY && inner.maxX <= outer.maxX
      && inner.maxY <= outer.maxY
  }
}

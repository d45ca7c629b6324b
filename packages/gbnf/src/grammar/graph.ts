/**
 * Directed graphs over numbered nodes, as the grammar checks need them: a cycle to report, and the
 * strongly connected components a cycle must stay inside. Both walk iteratively, so a grammar of
 * thousands of rules cannot overflow the call stack.
 * @module
 */

/**
 * Finds a directed cycle (iterative DFS); returns its nodes in order, the first one
 * repeated at the end, or undefined when the graph has none.
 */
export function _findCycle(count: number, edges: (n: number) => readonly number[]): number[] | undefined {
  const state = new Uint8Array(count); // 0 new, 1 on the path, 2 done
  const path: number[] = [];
  const cursor: number[] = [];
  for (let start = 0; start < count; start++) {
    if (state[start] !== 0) continue;
    path.push(start);
    cursor.push(0);
    state[start] = 1;
    while (path.length > 0) {
      const top = path.length - 1;
      const n = path[top] ?? 0;
      const out = edges(n);
      const i = cursor[top] ?? 0;
      if (i < out.length) {
        cursor[top] = i + 1;
        const m = out[i] ?? 0;
        if (state[m] === 1) return path.slice(path.indexOf(m)).concat(m);
        if (state[m] === 0) {
          state[m] = 1;
          path.push(m);
          cursor.push(0);
        }
      } else {
        state[n] = 2;
        path.pop();
        cursor.pop();
      }
    }
  }
  return undefined;
}

/**
 * Strongly connected components (Tarjan, iterative): per node, the number of its
 * component.
 */
export function _stronglyConnected(n: number, edges: readonly (readonly number[])[]): Int32Array {
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const comp = new Int32Array(n).fill(-1);
  const stack: number[] = [];
  let counter = 0;
  let comps = 0;
  const work: number[] = [];
  const edgePos: number[] = [];
  for (let s = 0; s < n; s++) {
    if (index[s] !== -1) continue;
    work.push(s);
    edgePos.push(0);
    index[s] = low[s] = counter++;
    stack.push(s);
    onStack[s] = 1;
    while (work.length > 0) {
      const top = work.length - 1;
      const v = work[top] ?? 0;
      const out = edges[v] ?? [];
      const i = edgePos[top] ?? 0;
      if (i < out.length) {
        edgePos[top] = i + 1;
        const w = out[i] ?? 0;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          work.push(w);
          edgePos.push(0);
        } else if (onStack[w]) {
          low[v] = Math.min(low[v] ?? 0, index[w] ?? 0);
        }
      } else {
        work.pop();
        edgePos.pop();
        if (work.length > 0) {
          const u = work[work.length - 1] ?? 0;
          low[u] = Math.min(low[u] ?? 0, low[v] ?? 0);
        }
        if (low[v] === index[v]) {
          for (;;) {
            const w = stack.pop() ?? 0;
            onStack[w] = 0;
            comp[w] = comps;
            if (w === v) break;
          }
          comps++;
        }
      }
    }
  }
  return comp;
}

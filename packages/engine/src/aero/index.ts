// The aero analysis: runs, virtual elevation (Chung), the direct method, baseline comparison.
export * from './types.ts'

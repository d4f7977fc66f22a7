// esbuild's text loader turns each SVG file into its source string.
declare module '*.svg' {
  const text: string;
  export default text;
}

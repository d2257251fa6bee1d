/**
 * fontkit (a dependency of pdfkit) ships no types. Only what the PDF renderer uses is declared: it
 * parses each font file once, hands the parsed font to pdfkit (which accepts it as a font source),
 * and draws glyph outlines for the watermark.
 */
declare module 'fontkit' {
  export interface Path {
    scale(scaleX: number, scaleY?: number): Path;
    translate(x: number, y: number): Path;
    /** SVG path data, in the units of the path. */
    toSVG(): string;
  }

  export interface Glyph {
    readonly id: number;
    readonly path: Path;
  }

  export interface GlyphPosition {
    xAdvance: number;
    yAdvance: number;
    xOffset: number;
    yOffset: number;
  }

  export interface GlyphRun {
    readonly glyphs: Glyph[];
    readonly positions: GlyphPosition[];
    readonly advanceWidth: number;
  }

  export interface Font {
    readonly postscriptName: string;
    readonly unitsPerEm: number;
    layout(text: string, features?: unknown): GlyphRun;
  }

  /** Parses a font file; a TrueType file gives one font. */
  export function create(buffer: Uint8Array, postscriptName?: string): Font;
}

import type {
  FloorPlanView,
  MapApView,
  PlanLayout,
  PlanScale,
  PlanWall,
  WallMaterial,
} from '@beacon/protocol';
import { type DragEvent, type PointerEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paintGrid } from './colours.ts';
import type { Coverage } from './useCoverage.ts';

export type Tool = 'move' | 'scale' | 'wall';
export type Layer = 'coverage' | 'overlap' | 'none';

/** Wall colours by material (drawn over the plan; the legend repeats them). */
export const WALL_COLOURS: Record<WallMaterial, string> = {
  drywall: '#8c8c8c',
  glass: '#1677ff',
  wood: '#8b4513',
  brick: '#b5462f',
  concrete: '#434343',
  metal: '#000000',
};

interface Props {
  plan: FloorPlanView;
  layout: PlanLayout;
  aps: readonly MapApView[];
  editable: boolean;
  tool: Tool;
  material: WallMaterial;
  layer: Layer;
  coverage: Coverage | null;
  selectedWall: number | null;
  onSelectWall(index: number | null): void;
  onChange(layout: PlanLayout): void;
  onScaleLine(line: Omit<PlanScale, 'metres'>): void;
}

type Line = { x1: number; y1: number; x2: number; y2: number };

/**
 * A floor plan with what is drawn on it, in the image's pixels: the coverage layer (a canvas, one
 * pixel per grid cell, stretched over the plan), the walls, the scale line and the APs with their
 * client counts. Editing: drop an AP from the list, drag an AP, draw the scale line or a wall.
 */
export function PlanCanvas(props: Props) {
  const { plan, layout, aps, editable, tool, layer, coverage } = props;
  const { t } = useTranslation();
  const svg = useRef<SVGSVGElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [drawing, setDrawing] = useState<Line | null>(null);
  const [dragging, setDragging] = useState<{ sn: string; x: number; y: number } | null>(null);
  const W = plan.width;
  const H = plan.height;
  const unit = Math.max(W, H) / 200;
  const byName = new Map(aps.map((a) => [a.sn, a]));

  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const ctx = c.getContext('2d');
    if (!ctx) return;
    if (!coverage || layer === 'none') {
      ctx.clearRect(0, 0, c.width, c.height);
      return;
    }
    const { grid } = coverage;
    c.width = grid.cols;
    c.height = grid.rows;
    ctx.putImageData(new ImageData(paintGrid(grid, layer), grid.cols, grid.rows), 0, 0);
  }, [coverage, layer]);

  const toImage = (e: { clientX: number; clientY: number }) => {
    const r = svg.current!.getBoundingClientRect();
    const clamp = (v: number, max: number) => Math.round(Math.min(max, Math.max(0, v)) * 10) / 10;
    return {
      x: clamp(((e.clientX - r.left) / r.width) * W, W),
      y: clamp(((e.clientY - r.top) / r.height) * H, H),
    };
  };

  const onPointerDown = (e: PointerEvent<SVGSVGElement>) => {
    if (!editable || tool === 'move') return;
    const p = toImage(e);
    svg.current?.setPointerCapture(e.pointerId);
    setDrawing({ x1: p.x, y1: p.y, x2: p.x, y2: p.y });
  };
  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    if (drawing) {
      const p = toImage(e);
      setDrawing({ ...drawing, x2: p.x, y2: p.y });
    } else if (dragging) setDragging({ ...dragging, ...toImage(e) });
  };
  const onPointerUp = () => {
    if (drawing) {
      const long = Math.hypot(drawing.x2 - drawing.x1, drawing.y2 - drawing.y1) >= 10;
      if (long && tool === 'scale') props.onScaleLine(drawing);
      if (long && tool === 'wall') {
        const wall: PlanWall = { ...drawing, material: props.material };
        props.onChange({ ...layout, walls: [...layout.walls, wall] });
      }
      setDrawing(null);
    }
    if (dragging) {
      props.onChange({
        ...layout,
        aps: layout.aps.map((a) => (a.sn === dragging.sn ? { sn: a.sn, x: dragging.x, y: dragging.y } : a)),
      });
      setDragging(null);
    }
  };
  const onDrop = (e: DragEvent<SVGSVGElement>) => {
    e.preventDefault();
    const sn = e.dataTransfer.getData('text/plain');
    if (!editable || !byName.has(sn)) return;
    const p = toImage(e);
    props.onChange({ ...layout, aps: [...layout.aps.filter((a) => a.sn !== sn), { sn, ...p }] });
  };

  const scale = layout.scale;
  const placed = layout.aps.map((a) => (dragging?.sn === a.sn ? { ...a, x: dragging.x, y: dragging.y } : a));
  const shown = coverage !== null && scale !== null && layer !== 'none';

  return (
    <div className="wifi-map-stage" data-testid="wifi-map-stage">
      <img src={plan.imageUrl} alt={t('wifiMap.planAlt', { name: plan.name })} draggable={false} />
      <canvas
        ref={canvas}
        data-testid="wifi-map-heatmap"
        data-layer={layer}
        data-ready={coverage ? 'true' : 'false'}
        style={{
          width: `${coverage && scale ? (coverage.grid.cols * coverage.grid.cellM * 100) / (W * metresOf(scale)) : 100}%`,
          height: `${coverage && scale ? (coverage.grid.rows * coverage.grid.cellM * 100) / (H * metresOf(scale)) : 100}%`,
          visibility: shown ? 'visible' : 'hidden',
        }}
      />
      <svg
        ref={svg}
        viewBox={`0 0 ${W} ${H}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={t('wifiMap.canvasLabel', {
          name: plan.name,
          aps: placed.length,
          walls: layout.walls.length,
        })}
        data-testid="wifi-map-canvas"
        className={editable && tool !== 'move' ? 'wifi-map-draw' : undefined}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onDragOver={(e) => {
          if (editable) e.preventDefault();
        }}
        onDrop={onDrop}
      >
        {layout.walls.map((w, i) => (
          // biome-ignore lint/a11y/noStaticElementInteractions: a wall is picked on the drawing with a pointer (the drawing is one figure)
          <line
            // biome-ignore lint/suspicious/noArrayIndexKey: walls have no identity but their place
            key={i}
            data-testid="wifi-map-wall"
            data-material={w.material}
            x1={w.x1}
            y1={w.y1}
            x2={w.x2}
            y2={w.y2}
            stroke={WALL_COLOURS[w.material]}
            strokeWidth={unit * (props.selectedWall === i ? 1.4 : 0.8)}
            strokeDasharray={props.selectedWall === i ? `${unit * 2} ${unit}` : undefined}
            strokeLinecap="round"
            onClick={() =>
              editable && tool === 'move' && props.onSelectWall(props.selectedWall === i ? null : i)
            }
          >
            <title>{t(`wifiMap.material.${w.material}`)}</title>
          </line>
        ))}
        {scale ? (
          <g data-testid="wifi-map-scale">
            <line
              x1={scale.x1}
              y1={scale.y1}
              x2={scale.x2}
              y2={scale.y2}
              stroke="#722ed1"
              strokeWidth={unit * 0.5}
              strokeDasharray={`${unit * 1.5} ${unit}`}
            />
            <text
              x={(scale.x1 + scale.x2) / 2}
              y={(scale.y1 + scale.y2) / 2 - unit}
              fontSize={unit * 3}
              textAnchor="middle"
              className="wifi-map-label"
            >
              {t('wifiMap.metres', { value: scale.metres })}
            </text>
          </g>
        ) : null}
        {drawing ? (
          <line
            {...drawing}
            stroke={tool === 'scale' ? '#722ed1' : WALL_COLOURS[props.material]}
            strokeWidth={unit * 0.8}
            strokeDasharray={`${unit} ${unit}`}
          />
        ) : null}
        {placed.map((a) => {
          const ap = byName.get(a.sn);
          const label = ap?.name ?? a.sn;
          return (
            <g
              key={a.sn}
              data-testid={`wifi-map-ap-${a.sn}`}
              data-clients={ap?.clients ?? 0}
              transform={`translate(${a.x} ${a.y})`}
              className={editable && tool === 'move' ? 'wifi-map-ap-movable' : undefined}
              onPointerDown={(e) => {
                if (!editable || tool !== 'move') return;
                e.stopPropagation();
                svg.current?.setPointerCapture(e.pointerId);
                setDragging({ sn: a.sn, x: a.x, y: a.y });
              }}
            >
              <title>{t('wifiMap.apTitle', { name: label, clients: ap?.clients ?? 0 })}</title>
              <circle
                r={unit * 1.8}
                fill={ap?.online ? '#1677ff' : '#8c8c8c'}
                stroke="#fff"
                strokeWidth={unit * 0.5}
              />
              <text y={unit * 0.9} fontSize={unit * 2.2} textAnchor="middle" fill="#fff" fontWeight={700}>
                {ap?.clients ?? 0}
              </text>
              <text y={unit * 4.6} fontSize={unit * 2.4} textAnchor="middle" className="wifi-map-label">
                {label}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}

const metresOf = (scale: PlanScale) => scale.metres / Math.hypot(scale.x2 - scale.x1, scale.y2 - scale.y1);

import type { FeatureCollection, Geometry, Position } from 'geojson';
import { numericToAlpha2 } from 'i18n-iso-countries';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import world from 'world-atlas/countries-110m.json';

/**
 * The world's countries as GeoJSON for the data screen's ECharts map (docs/decisions/0045):
 * Natural Earth 1:110m from `world-atlas` (TopoJSON, ~100 KB, ~35 KB gzipped), turned into GeoJSON
 * by `topojson-client`, each feature named by its ISO 3166-1 alpha-2 code (world-atlas names them
 * by the numeric code; `i18n-iso-countries` maps one to the other). Imported only by the map, in a
 * chunk of its own that loads with the data screen. Territories without a code (Kosovo, N. Cyprus,
 * Somaliland) keep a name no chosen country can match.
 */
export type CountryProperties = { name: string };

/** Antarctica: a band across the whole bottom of a flat map, with no device on it. */
const ANTARCTICA = '010';

/**
 * A ring that crosses the antimeridian (Russia's Chukotka, Fiji) jumps from +180° to −180°, which a
 * flat map draws as a line across the world: its western points move east by 360° instead.
 */
function unwrap(ring: Position[]): Position[] {
  const crosses = ring.some((p, i) => i > 0 && Math.abs(p[0] - ring[i - 1][0]) > 180);
  return crosses ? ring.map(([lon, lat]) => [lon < 0 ? lon + 360 : lon, lat]) : ring;
}

function unwrapGeometry(geometry: Geometry): Geometry {
  if (geometry.type === 'Polygon') return { ...geometry, coordinates: geometry.coordinates.map(unwrap) };
  if (geometry.type === 'MultiPolygon')
    return { ...geometry, coordinates: geometry.coordinates.map((polygon) => polygon.map(unwrap)) };
  return geometry;
}

export function worldGeoJson(): FeatureCollection<Geometry, CountryProperties> {
  const topology = world as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const collection = feature(topology, topology.objects.countries) as FeatureCollection<
    Geometry,
    { name: string }
  >;
  return {
    type: 'FeatureCollection',
    features: collection.features
      .filter((f) => f.id !== ANTARCTICA)
      .map((f, i) => ({
        ...f,
        geometry: unwrapGeometry(f.geometry),
        properties: { name: (f.id !== undefined && numericToAlpha2(String(f.id))) || `none-${i}` },
      })),
  };
}

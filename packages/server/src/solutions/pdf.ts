import type { SolutionView } from '@beacon/protocol';
import PDFDocument from 'pdfkit';

/**
 * The PDF export of a solution (docs/decisions/0054), drawn with pdfkit on the server: title, the
 * device list as a table (model, description, quantity, remarks), how it was computed, deployment
 * advice and the solution's advantages. The standard Helvetica font speaks WinAnsi: the few
 * mathematical signs the generator's explanations use are spelt in ASCII.
 */

const ROLE_NAMES: Record<string, string> = {
  ap: 'AP',
  access_switch: 'Access switch',
  core_switch: 'Core switch',
  gateway: 'Gateway',
};

/** Characters outside WinAnsi, spelt so Helvetica can draw them. */
export function pdfText(text: string): string {
  return text
    .replaceAll('⌈', 'ceil(')
    .replaceAll('⌉', ')')
    .replaceAll('⌊', 'floor(')
    .replaceAll('⌋', ')')
    .replaceAll('√3', 'sqrt(3)')
    .replaceAll('≤', '<=')
    .replaceAll('→', '->')
    .replace(/[^\x20-\x7e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022]/g, '?');
}

export function solutionPdf(
  solution: SolutionView,
  scenarioName: string,
  generatedAt: Date,
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 48,
    info: { Title: pdfText(`Solution: ${solution.name}`), Author: 'Beacon', Subject: 'Network solution' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const heading = (text: string) => {
    doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).fillColor('#1f2937').text(pdfText(text), left);
    doc.moveDown(0.3).font('Helvetica').fontSize(10).fillColor('#111827');
  };

  doc.font('Helvetica-Bold').fontSize(20).fillColor('#0f4c81').text(pdfText(solution.name));
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor('#4b5563')
    .text(
      pdfText(
        `Scenario: ${scenarioName}   Owner: ${solution.owner}   Modified: ${solution.modifiedAt.slice(0, 10)}   ` +
          `Exported: ${generatedAt.toISOString().slice(0, 10)}`,
      ),
    );
  const r = solution.recommendation;
  doc.text(
    pdfText(
      `${r.clients.toLocaleString('en-US')} clients, ${r.demandMbps.toLocaleString('en-US')} Mbps demand`,
    ),
  );

  heading('Device list');
  const cols = [
    { title: 'Device', w: 0.16 },
    { title: 'Model', w: 0.16 },
    { title: 'Description', w: 0.32 },
    { title: 'Quantity', w: 0.1 },
    { title: 'Remarks', w: 0.26 },
  ];
  const row = (cells: string[], bold: boolean) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
    const heights = cells.map((c, i) => doc.heightOfString(pdfText(c), { width: cols[i].w * width - 6 }));
    const h = Math.max(...heights) + 6;
    if (doc.y + h > doc.page.height - doc.page.margins.bottom) doc.addPage();
    const y = doc.y;
    if (bold) doc.rect(left, y, width, h).fill('#e5edf5').fillColor('#111827');
    let x = left;
    cells.forEach((c, i) => {
      doc.text(pdfText(c), x + 3, y + 3, { width: cols[i].w * width - 6 });
      x += cols[i].w * width;
    });
    doc
      .moveTo(left, y + h)
      .lineTo(left + width, y + h)
      .strokeColor('#cbd5e1')
      .lineWidth(0.5)
      .stroke();
    doc.x = left;
    doc.y = y + h;
  };
  row(
    cols.map((c) => c.title),
    true,
  );
  for (const line of r.lines) {
    row(
      [ROLE_NAMES[line.role] ?? line.role, line.model, line.description, String(line.quantity), line.remark],
      false,
    );
  }

  const bullets = (items: string[]) => {
    for (const item of items) doc.text(pdfText(`•  ${item}`), left, doc.y, { width, paragraphGap: 3 });
  };
  heading('How it was computed');
  bullets(r.steps.map((s) => `${s.label}: ${s.value}. ${s.reason}`));
  heading('Deployment advice');
  bullets(r.advice);
  heading('Solution advantages');
  bullets(r.advantages);

  doc.end();
  return done;
}

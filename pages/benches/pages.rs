//! Each page writer against the Arrow writer on the same column: a million
//! rows of the kind deckhand writes (short strings from a small set, lists
//! of two-byte card names, ascending keys), zstd, one row group.
//!   cargo bench -p deckhand-pages

use std::hint::black_box;
use std::sync::Arc;

use arrow_array::builder::{ListBuilder, StringBuilder};
use arrow_array::{Array, ArrayRef, Int64Array, RecordBatch, StringArray};
use arrow_schema::{Field, Schema};
use criterion::{Criterion, criterion_group, criterion_main};
use deckhand_pages::chunk::Pages;
use deckhand_pages::delta_pages::DeltaPages;
use deckhand_pages::flat_pages::FlatPages;
use deckhand_pages::list_pages::ListPages;
use parquet::arrow::{ArrowSchemaConverter, ArrowWriter};
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::reader::Length;
use parquet::schema::types::ColumnDescPtr;

const ROWS: usize = 1_000_000;

/// The column's descriptor and the settings deckhand's sink gives it
/// (`src/sink/writer.rs`): card lists without statistics and
/// DELTA_LENGTH_BYTE_ARRAY, keys without a dictionary and delta encoded.
fn setup(field: &Field, kind: &str) -> (WriterProperties, ColumnDescPtr) {
    let schema = Schema::new(vec![field.clone()]);
    let converted = ArrowSchemaConverter::new()
        .convert(&schema)
        .expect("a Parquet schema");
    let descr = converted.column(0);
    let path = descr.path().clone();
    let b = WriterProperties::builder().set_compression(Compression::ZSTD(ZstdLevel::default()));
    let b = match kind {
        "cards" => b
            .set_column_statistics_enabled(path.clone(), EnabledStatistics::None)
            .set_column_encoding(path, Encoding::DELTA_LENGTH_BYTE_ARRAY),
        "id" => b
            .set_column_dictionary_enabled(path.clone(), false)
            .set_column_encoding(path, Encoding::DELTA_BINARY_PACKED),
        _ => b,
    };
    (b.build(), descr)
}

fn arrow_writer(field: &Field, array: &ArrayRef, props: &WriterProperties) -> usize {
    let schema = Arc::new(Schema::new(vec![field.clone()]));
    let batch = RecordBatch::try_new(schema.clone(), vec![array.clone()]).unwrap();
    let mut w = ArrowWriter::try_new(Vec::new(), schema, Some(props.clone())).unwrap();
    w.write(&batch).unwrap();
    w.into_inner().unwrap().len()
}

fn pages(mut p: impl Pages, array: &ArrayRef) -> usize {
    p.write(&[array.as_ref()]).unwrap();
    p.finish_chunk().unwrap().0.len() as usize
}

fn columns() -> [(Field, ArrayRef); 3] {
    let seats = ["N", "E", "S", "W"];
    let names: StringArray = (0..ROWS).map(|i| Some(seats[i % 4])).collect();
    let mut cards = ListBuilder::new(StringBuilder::new());
    let deck = [
        "AS", "TS", "KS", "QS", "JS", "9S", "AH", "TH", "KH", "QH", "JH", "9H",
    ];
    for i in 0..ROWS / 10 {
        for k in 0..10 {
            cards
                .values()
                .append_value(deck[(i * 7 + k * 5) % deck.len()]);
        }
        cards.append(true);
    }
    let cards = cards.finish();
    let keys: Int64Array = (0..ROWS as i64).map(|i| Some(i << 8)).collect();
    [
        (
            Field::new("seat", names.data_type().clone(), true),
            Arc::new(names),
        ),
        (
            Field::new("cards", cards.data_type().clone(), true),
            Arc::new(cards),
        ),
        (
            Field::new("id", keys.data_type().clone(), false),
            Arc::new(keys),
        ),
    ]
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("pages");
    g.sample_size(10);
    for (field, array) in columns() {
        let name = field.name().clone();
        let (props, d) = setup(&field, &name);
        g.bench_function(format!("{name}/arrow"), |b| {
            b.iter(|| black_box(arrow_writer(&field, &array, &props)))
        });
        g.bench_function(format!("{name}/deckhand"), |b| {
            b.iter(|| {
                black_box(match name.as_str() {
                    "seat" => pages(FlatPages::new(&field, d.clone(), &props).unwrap(), &array),
                    "cards" => pages(ListPages::new(&field, d.clone(), &props).unwrap(), &array),
                    _ => pages(DeltaPages::new(&field, d.clone(), &props).unwrap(), &array),
                })
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

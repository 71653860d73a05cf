/**
 * The words a directory is made of: five domains (health, libraries, trade, clubs, venues), each
 * with categories that have a similarly named twin ("Clinics" and "Clinical supplies"), their
 * subcategories, the suffixes of their records' names and the number each record states. Plus the
 * parts of invented names for towns, records, streets and people.
 */

export interface CategorySpec {
  name: string;
  blurb: string;
  subs: string[];
  /** How records of this category end their names: "Maplebrook Clinic". */
  suffixes: string[];
  /** The number every record of the category states, as a plural noun ("Practitioners"). */
  numeric: { label: string; lo: number; hi: number };
  /** The similarly named category that sits beside it as a distractor. */
  twin: { name: string; blurb: string; subs: string[]; suffixes: string[]; numeric: { label: string; lo: number; hi: number } };
}

export interface DomainSpec {
  key: string;
  /** What the whole directory lists, for its home page ("health services"). */
  listsWhat: string;
  siteWords: string[];
  /** The values of the "type" filter. */
  types: string[];
  /** Topics of the contact form. */
  topics: string[];
  categories: CategorySpec[];
}

export const DOMAINS: DomainSpec[] = [
  {
    key: 'health',
    listsWhat: 'health services',
    siteWords: ['Health Directory', 'Care Finder', 'Health Guide', 'Care Index'],
    types: ['Public', 'Private', 'Charity'],
    topics: ['Appointments', 'General question', 'Opening hours', 'Feedback'],
    categories: [
      {
        name: 'Clinics', blurb: 'Family doctors, dentists, eye care and physiotherapy.', subs: ['Family practice', 'Dental care', 'Eye care', 'Physiotherapy'],
        suffixes: ['Clinic', 'Health Centre', 'Medical Practice'], numeric: { label: 'Practitioners', lo: 2, hi: 40 },
        twin: { name: 'Clinical supplies', blurb: 'Equipment and consumables for practices.', subs: ['Medical equipment', 'Lab supplies', 'Mobility aids'], suffixes: ['Clinical Supplies', 'Medical Supplies', 'Surgical Supply'], numeric: { label: 'Products', lo: 40, hi: 4000 } },
      },
      {
        name: 'Pharmacies', blurb: 'Prescriptions, advice and late-night chemists.', subs: ['Community pharmacies', 'Late-night pharmacies', 'Compounding pharmacies'],
        suffixes: ['Pharmacy', 'Chemist', 'Dispensary'], numeric: { label: 'Pharmacists', lo: 1, hi: 12 },
        twin: { name: 'Pharmacy training', blurb: 'Courses and placements for pharmacy staff.', subs: ['Courses', 'Placements'], suffixes: ['Pharmacy Academy', 'Dispensing School'], numeric: { label: 'Students', lo: 10, hi: 600 } },
      },
      {
        name: 'Care homes', blurb: 'Residential, nursing and respite care.', subs: ['Residential care', 'Nursing care', 'Respite care'],
        suffixes: ['House', 'Lodge', 'Care Home'], numeric: { label: 'Beds', lo: 8, hi: 120 },
        twin: { name: 'Home care', blurb: 'Carers who visit you at home.', subs: ['Visiting carers', 'Live-in care'], suffixes: ['Home Care', 'Care at Home'], numeric: { label: 'Carers', lo: 4, hi: 200 } },
      },
      {
        name: 'Therapists', blurb: 'Counselling, speech and occupational therapy.', subs: ['Counselling', 'Speech therapy', 'Occupational therapy'],
        suffixes: ['Therapy Rooms', 'Counselling', 'Wellbeing'], numeric: { label: 'Therapists', lo: 1, hi: 25 },
        twin: { name: 'Therapy equipment', blurb: 'Tables, mats and exercise equipment.', subs: ['Treatment tables', 'Exercise equipment'], suffixes: ['Therapy Supplies', 'Therapy Equipment'], numeric: { label: 'Products', lo: 30, hi: 2500 } },
      },
    ],
  },
  {
    key: 'libraries',
    listsWhat: 'libraries, archives and places to read',
    siteWords: ['Library Directory', 'Reading Guide', 'Book Finder', 'Library Index'],
    types: ['Public', 'University', 'Private'],
    topics: ['Membership', 'Borrowing', 'Opening hours', 'Room booking'],
    categories: [
      {
        name: 'Libraries', blurb: 'Public, university, children\'s and mobile libraries.', subs: ['Public libraries', 'University libraries', 'Children\'s libraries', 'Mobile libraries'],
        suffixes: ['Library', 'Reading Room', 'Book Hall'], numeric: { label: 'Books', lo: 2000, hi: 400000 },
        twin: { name: 'Library supplies', blurb: 'Shelving, labels and book repair.', subs: ['Shelving', 'Book repair', 'Labels and barcodes'], suffixes: ['Library Supplies', 'Shelving Co', 'Library Fittings'], numeric: { label: 'Products', lo: 40, hi: 3000 } },
      },
      {
        name: 'Archives', blurb: 'Local history, parish records and photographs.', subs: ['Local history', 'Parish records', 'Photo archives'],
        suffixes: ['Archive', 'Record Office', 'History Centre'], numeric: { label: 'Collections', lo: 5, hi: 900 },
        twin: { name: 'Archive storage', blurb: 'Boxes, vaults and document storage.', subs: ['Document storage', 'Archival boxes'], suffixes: ['Archive Storage', 'Document Vaults'], numeric: { label: 'Storage units', lo: 20, hi: 5000 } },
      },
      {
        name: 'Bookshops', blurb: 'New, second-hand and comic bookshops.', subs: ['New books', 'Second-hand books', 'Comics'],
        suffixes: ['Books', 'Bookshop', 'Booksellers'], numeric: { label: 'Titles', lo: 300, hi: 60000 },
        twin: { name: 'Bookbinders', blurb: 'Repairs and custom binding.', subs: ['Repairs', 'Custom binding'], suffixes: ['Bindery', 'Bookbinders'], numeric: { label: 'Orders per month', lo: 5, hi: 400 } },
      },
      {
        name: 'Study spaces', blurb: 'Quiet rooms and desks to work at.', subs: ['Quiet rooms', 'Shared desks', 'Group rooms'],
        suffixes: ['Study Hub', 'Study Rooms', 'Desk Space'], numeric: { label: 'Desks', lo: 6, hi: 300 },
        twin: { name: 'Study supplies', blurb: 'Stationery and study guides.', subs: ['Stationery', 'Study guides'], suffixes: ['Study Supplies', 'Stationers'], numeric: { label: 'Products', lo: 50, hi: 5000 } },
      },
    ],
  },
  {
    key: 'trade',
    listsWhat: 'trade suppliers and workshops',
    siteWords: ['Trade Directory', 'Supplier Finder', 'Trade Guide', 'Trade Index'],
    types: ['Trade only', 'Public', 'Cooperative'],
    topics: ['Quotes', 'Opening a trade account', 'Delivery', 'Returns'],
    categories: [
      {
        name: 'Suppliers', blurb: 'Timber, building materials, electrical and plumbing.', subs: ['Timber', 'Building materials', 'Electrical', 'Plumbing'],
        suffixes: ['Supplies', 'Trade Supply', 'Merchants'], numeric: { label: 'Products stocked', lo: 200, hi: 40000 },
        twin: { name: 'Supply chain services', blurb: 'Freight, warehousing and logistics.', subs: ['Freight', 'Warehousing'], suffixes: ['Supply Chain', 'Logistics', 'Freight'], numeric: { label: 'Vehicles', lo: 2, hi: 300 } },
      },
      {
        name: 'Tool hire', blurb: 'Power tools, access equipment and garden machinery.', subs: ['Power tools', 'Access equipment', 'Garden machinery'],
        suffixes: ['Tool Hire', 'Hire Centre', 'Plant Hire'], numeric: { label: 'Items for hire', lo: 40, hi: 3000 },
        twin: { name: 'Tool repair', blurb: 'Servicing and repair of tools.', subs: ['Servicing', 'Sharpening'], suffixes: ['Tool Repairs', 'Tool Services'], numeric: { label: 'Repairs per week', lo: 5, hi: 300 } },
      },
      {
        name: 'Workshops', blurb: 'Metalwork, joinery and upholstery.', subs: ['Metalwork', 'Joinery', 'Upholstery'],
        suffixes: ['Workshop', 'Works', 'Fabrication'], numeric: { label: 'Staff', lo: 2, hi: 80 },
        twin: { name: 'Workshop courses', blurb: 'Learn a trade at evening classes.', subs: ['Evening classes', 'Apprenticeships'], suffixes: ['Craft School', 'Trade Courses'], numeric: { label: 'Students', lo: 8, hi: 400 } },
      },
      {
        name: 'Wholesalers', blurb: 'Food, hardware and textile wholesale.', subs: ['Food', 'Hardware', 'Textiles'],
        suffixes: ['Wholesale', 'Trading', 'Distributors'], numeric: { label: 'Trade accounts', lo: 20, hi: 9000 },
        twin: { name: 'Wholesale markets', blurb: 'Early-morning markets for traders.', subs: ['Produce markets', 'Flower markets'], suffixes: ['Market', 'Market Hall'], numeric: { label: 'Stalls', lo: 10, hi: 400 } },
      },
    ],
  },
  {
    key: 'clubs',
    listsWhat: 'clubs, groups and classes',
    siteWords: ['Club Directory', 'Club Finder', 'Leisure Guide', 'Club Index'],
    types: ['Members only', 'Open to all', 'Youth'],
    topics: ['Joining', 'Trial session', 'Fees', 'Events'],
    categories: [
      {
        name: 'Sports clubs', blurb: 'Football, tennis, swimming and rowing.', subs: ['Football', 'Tennis', 'Swimming', 'Rowing'],
        suffixes: ['Sports Club', 'Athletic Club', 'Club'], numeric: { label: 'Members', lo: 15, hi: 3000 },
        twin: { name: 'Sports shops', blurb: 'Kit, footwear and equipment.', subs: ['Footwear', 'Equipment'], suffixes: ['Sports', 'Outfitters', 'Sports Shop'], numeric: { label: 'Products', lo: 100, hi: 8000 } },
      },
      {
        name: 'Hobby clubs', blurb: 'Chess, photography and model railways.', subs: ['Chess', 'Photography', 'Model railways'],
        suffixes: ['Club', 'Society', 'Circle'], numeric: { label: 'Members', lo: 6, hi: 400 },
        twin: { name: 'Hobby supplies', blurb: 'Kits, paints and materials.', subs: ['Model kits', 'Art materials'], suffixes: ['Hobbies', 'Hobby Supplies', 'Craft Supplies'], numeric: { label: 'Products', lo: 100, hi: 6000 } },
      },
      {
        name: 'Walking groups', blurb: 'Hill walking, rambling and Nordic walking.', subs: ['Hill walking', 'Rambling', 'Nordic walking'],
        suffixes: ['Walkers', 'Ramblers', 'Walking Group'], numeric: { label: 'Walks per year', lo: 12, hi: 200 },
        twin: { name: 'Walking gear', blurb: 'Boots, poles and maps.', subs: ['Boots', 'Maps and guides'], suffixes: ['Walking Gear', 'Outdoor Store'], numeric: { label: 'Products', lo: 50, hi: 3000 } },
      },
      {
        name: 'Dance schools', blurb: 'Ballet, ballroom and folk dance.', subs: ['Ballet', 'Ballroom', 'Folk dance'],
        suffixes: ['Dance School', 'Dance Studio', 'Academy of Dance'], numeric: { label: 'Classes per week', lo: 2, hi: 60 },
        twin: { name: 'Dancewear', blurb: 'Shoes and costumes for dancers.', subs: ['Shoes', 'Costumes'], suffixes: ['Dancewear', 'Dance Shop'], numeric: { label: 'Products', lo: 40, hi: 2000 } },
      },
    ],
  },
  {
    key: 'venues',
    listsWhat: 'venues and event services',
    siteWords: ['Venue Directory', 'Venue Finder', 'Events Guide', 'Venue Index'],
    types: ['Council-run', 'Independent', 'Trust'],
    topics: ['Booking enquiry', 'Availability', 'Prices', 'Accessibility'],
    categories: [
      {
        name: 'Venues', blurb: 'Concert halls, conference centres, wedding venues and theatres.', subs: ['Concert halls', 'Conference centres', 'Wedding venues', 'Theatres'],
        suffixes: ['Hall', 'Centre', 'Rooms', 'Pavilion'], numeric: { label: 'Seats', lo: 40, hi: 4000 },
        twin: { name: 'Venue services', blurb: 'Staging, lighting and sound hire.', subs: ['Staging', 'Lighting hire', 'Sound hire'], suffixes: ['Venue Services', 'Event Services', 'Staging'], numeric: { label: 'Crew', lo: 2, hi: 90 } },
      },
      {
        name: 'Caterers', blurb: 'Weddings, corporate events and street food.', subs: ['Weddings', 'Corporate', 'Street food'],
        suffixes: ['Catering', 'Kitchen', 'Caterers'], numeric: { label: 'Chefs', lo: 1, hi: 40 },
        twin: { name: 'Catering equipment', blurb: 'Ovens, tableware and hire.', subs: ['Tableware hire', 'Kitchen equipment'], suffixes: ['Catering Supplies', 'Catering Equipment'], numeric: { label: 'Products', lo: 60, hi: 5000 } },
      },
      {
        name: 'Galleries', blurb: 'Modern art, photography and crafts.', subs: ['Modern art', 'Photography', 'Crafts'],
        suffixes: ['Gallery', 'Art Space', 'Galleries'], numeric: { label: 'Works on show', lo: 10, hi: 900 },
        twin: { name: 'Gallery framing', blurb: 'Framers and art handlers.', subs: ['Framers', 'Art handling'], suffixes: ['Framing', 'Frame Makers'], numeric: { label: 'Frames per month', lo: 10, hi: 700 } },
      },
      {
        name: 'Event planners', blurb: 'Weddings, parties and conferences planned for you.', subs: ['Weddings', 'Parties', 'Conferences'],
        suffixes: ['Events', 'Occasions', 'Event Planning'], numeric: { label: 'Events per year', lo: 5, hi: 500 },
        twin: { name: 'Event planning courses', blurb: 'Learn to plan events.', subs: ['Short courses', 'Diplomas'], suffixes: ['Events Academy', 'Planning School'], numeric: { label: 'Students', lo: 10, hi: 500 } },
      },
    ],
  },
];

/** Town names are two invented halves: "Ashford", "Millbury", "Kestwick". */
export const TOWN_HEADS = ['North', 'South', 'East', 'West', 'Ash', 'Elm', 'Oak', 'Mill', 'Stone', 'Brook', 'Fair', 'Glen', 'High', 'Kest', 'Lang', 'Marsh', 'Red', 'Wood', 'Thorn', 'Hazel'];
export const TOWN_TAILS = ['field', 'ford', 'bury', 'ton', 'wick', 'mouth', 'dale', 'by', 'ham', 'stead', 'haven', 'gate', 'more'];

/** Record stems: "Maplebrook", "Silvergate". The suffix then says what kind of place it is. */
export const STEM_HEADS = ['Green', 'Silver', 'Bright', 'Hollow', 'Maple', 'Cedar', 'Willow', 'Rose', 'Harbor', 'Lark', 'Clover', 'Amber', 'Heather', 'Fern', 'Briar', 'Copper', 'Juniper', 'Meadow', 'River', 'Summit', 'Orchard', 'Falcon', 'Beacon', 'Hazel'];
export const STEM_TAILS = ['leaf', 'stone', 'field', 'brook', 'gate', 'well', 'side', 'view', 'wood', 'crest', 'bridge', 'hill', 'mere', 'lea'];

export const STREETS = ['Marlow', 'Church', 'Station', 'Victoria', 'Mill', 'Park', 'Queen', 'Bridge', 'Chapel', 'Albert', 'Elm', 'Harbour', 'Market', 'Orchard', 'Castle', 'Willow'];
export const STREET_KINDS = ['Road', 'Street', 'Lane', 'Avenue', 'Way', 'Place'];

export const FIRST_NAMES = ['Ada', 'Boris', 'Celia', 'Dmitri', 'Edith', 'Felix', 'Greta', 'Henrik', 'Ilse', 'Jasper', 'Katja', 'Leon', 'Mira', 'Nils', 'Oona', 'Piet', 'Rosa', 'Soren', 'Tilde', 'Viktor'];
export const LAST_NAMES = ['Aalto', 'Brandt', 'Castell', 'Dekker', 'Eriksen', 'Fontaine', 'Gallo', 'Holm', 'Iversen', 'Jansen', 'Kowal', 'Larsen', 'Meyer', 'Nord', 'Okafor', 'Pereira', 'Quist', 'Rahman'];

/** What a person writes in the contact form or as a note on a saved listing. */
export const MESSAGES = [
  'Do you have anything free next Tuesday morning?',
  'Is there step-free access from the car park?',
  'Could you send me your price list, please?',
  'Are you taking on new people at the moment?',
  'Can I visit before deciding?',
  'Do you open on public holidays?',
  'Is there parking nearby for a van?',
  'Could someone call me back this week?',
];
export const NOTES = ['Call back in spring', 'Ask about prices', 'Near the station', 'Recommended by Mira', 'Visit on Saturday', 'Compare with others', 'Good reviews', 'Check parking'];

/** A listing's description, written with its name and town when the page is drawn (a task may move it to another town). */
export const LISTING_BLURBS = [
  (name: string, town: string) => `${name} has served ${town} and the villages around it for many years.`,
  (name: string, town: string) => `Friendly staff at ${name} in ${town}; ring ahead at busy times.`,
  (name: string) => `${name} is easy to reach by bus and has a small car park.`,
  (name: string, town: string) => `A well-known name in ${town}, ${name} welcomes new visitors.`,
];
